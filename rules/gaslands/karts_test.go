package gaslands

import "testing"

// The vehicle table, cell by cell (rules notes: Buggy Light 6/4/6, Car Middle 10/3/5,
// Performance Car Middle 8/4/6, Truck Middle 12/2/4, Heavy Truck Heavy 14/2/3, Bike Light 4/5/6).
func TestVehicles(t *testing.T) {
	for _, want := range []Vehicle{
		{"buggy", Light, 6, 4, 6}, {"car", Middle, 10, 3, 5}, {"performance-car", Middle, 8, 4, 6},
		{"truck", Middle, 12, 2, 4}, {"heavy-truck", Heavy, 14, 2, 3}, {"bike", Light, 4, 5, 6},
	} {
		got, err := VehicleNamed(want.Name)
		if err != nil || got != want {
			t.Errorf("%s: %+v %v, want %+v", want.Name, got, err, want)
		}
		if got.Handling > MaxSkidDice {
			t.Errorf("%s rolls %d skid dice, more than the die odds cover", got.Name, got.Handling)
		}
	}
	if len(Vehicles) != 6 {
		t.Errorf("%d vehicles, the notes give 6", len(Vehicles))
	}
	if _, err := VehicleNamed("tank"); err == nil {
		t.Error("a tank found")
	}
	if Heavy.Heavier(Light) != 2 || Light.Heavier(Middle) != -1 {
		t.Error("weight class differences")
	}
}

package gaslands

import (
	"fmt"
	"strings"
)

// Weight is a kart's weight class.
type Weight int

// The weight classes, lightest first: a difference of classes adds or takes smash dice.
const (
	Light Weight = iota + 1
	Middle
	Heavy
)

var weightNames = [...]string{Light: "light", Middle: "middle", Heavy: "heavy"}

func (w Weight) String() string { return enumName("Weight", w, weightNames[:]) }

// Heavier is how many classes w is heavier than o (negative: lighter).
func (w Weight) Heavier(o Weight) int { return int(w) - int(o) }

// Vehicle is a kart's body from the Gaslands vehicle table (rules notes):
// its weight class, hull, Handling (its most skid dice) and maximum gear.
type Vehicle struct {
	Name     string
	Weight   Weight
	Hull     int
	Handling int
	MaxGear  int
}

// kart is a new kart of this vehicle, as a race sets it up: in first gear,
// evading in a collision, not yet placed.
func (v Vehicle) kart(seat int, player, name string) Kart {
	return Kart{Seat: seat, Player: player, Name: name, Vehicle: v.Name, Weight: v.Weight, Handling: v.Handling,
		MaxGear: v.MaxGear, Gear: 1, Collide: "evade"}
}

// Vehicles is the table, row by row as the notes give it (weight hull/handling/max gear).
var Vehicles = []Vehicle{
	{"buggy", Light, 6, 4, 6},
	{"car", Middle, 10, 3, 5},
	{"performance-car", Middle, 8, 4, 6},
	{"truck", Middle, 12, 2, 4},
	{"heavy-truck", Heavy, 14, 2, 3},
	{"bike", Light, 4, 5, 6},
}

// VehicleNamed finds a vehicle by name.
func VehicleNamed(name string) (Vehicle, error) {
	var names []string
	for _, v := range Vehicles {
		if strings.EqualFold(strings.TrimSpace(name), v.Name) {
			return v, nil
		}
		names = append(names, v.Name)
	}
	return Vehicle{}, fmt.Errorf("no vehicle %q; vehicles: %s", name, strings.Join(names, ", "))
}

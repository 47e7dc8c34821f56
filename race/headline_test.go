package race

import "testing"

func TestNamedIn(t *testing.T) {
	seats := []Seat{{Seat: 0, Name: "Gaius"}, {Seat: 1, Name: "Gaius Minor"}, {Seat: 2, Name: "Livia"}, {Seat: 3, Name: ""}}
	for _, tc := range []struct {
		text string
		not  int
		want string
		ok   bool
	}{
		{"Livia crashes into the chariot of Gaius Minor alongside", 2, "Gaius Minor", true},
		{"Livia crashes into the chariot of Gaius alongside", 2, "Gaius", true},
		{"CRASH! Gaius runs into Livia at (3,4): Livia keeps the spot, Gaius is put behind", 0, "Livia", true},
		{"Gaius Minor lashes at Gaius: Gaius is stunned", 1, "Gaius", true},
		{"Gaius Minor lashes at Livia", 1, "Livia", true},
		{"Gaius lashes at Gaius Minor", 0, "Gaius Minor", true},
		{"Livia drives on alone", 2, "", false},
	} {
		got, ok := NamedIn(tc.text, seats, tc.not)
		if ok != tc.ok || got.Name != tc.want {
			t.Errorf("NamedIn(%q, not %d) = %q %v, want %q %v", tc.text, tc.not, got.Name, ok, tc.want, tc.ok)
		}
	}
	if NameOf(seats, 1) != "Gaius Minor" || NameOf(seats, 9) != "" {
		t.Errorf("NameOf: %q %q", NameOf(seats, 1), NameOf(seats, 9))
	}
}

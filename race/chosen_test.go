package race

import "testing"

// A choice is read in any case, with spaces around it, as the field lists
// it; a value the field does not take is Check's error.
func TestChosen(t *testing.T) {
	f := Field{Name: "pit-finish", Type: Choice, Values: []string{"lap", "no-win"}}
	if v, err := f.Chosen(" No-Win "); err != nil || v != "no-win" {
		t.Errorf("Chosen(%q) = %q, %v; want no-win", " No-Win ", v, err)
	}
	if v, err := f.Chosen("pit"); err == nil || err.Error() != f.Check("pit").Error() || v != "" {
		t.Errorf("Chosen(pit) = %q, %v; want Check's error", v, err)
	}
}

package store

import "testing"

func TestBotControl(t *testing.T) {
	for _, tc := range []struct {
		name, value, back string
	}{
		{"", ControlBot, "heuristic"},
		{"heuristic", ControlBot, "heuristic"},
		{"cruise", "bot:cruise", "cruise"},
		{"search", "bot:search", "search"},
	} {
		value := BotControl(tc.name)
		if value != tc.value {
			t.Errorf("BotControl(%q) = %q; want %q", tc.name, value, tc.value)
		}
		if back, ok := BotOf(value); !ok || back != tc.back {
			t.Errorf("BotOf(%q) = %q, %v; want %q", value, back, ok, tc.back)
		}
		if err := CheckControl(Control{Race: "r", Kind: ControlSeat, Seat: 0, Value: value}); err != nil {
			t.Errorf("a seat handed to %q: %v", value, err)
		}
	}
	for _, value := range []string{ControlPerson, ControlRemoved, "bot:", "robot", "botsearch", ""} {
		if name, ok := BotOf(value); ok || name != "" {
			t.Errorf("BotOf(%q) = %q, %v; want no bot", value, name, ok)
		}
	}
}

package render

import "testing"

// The plain text of a post holds every word of it and no markup: names
// come out as they are, tables line up.
func TestText(t *testing.T) {
	want := "Circus Maximus — Turn 7\n" +
		"=======================\n" +
		"\n" +
		"Lap 2 of 3. Ann leads; Bob crashed into the spina.\n" +
		"\n" +
		"Standings\n" +
		"---------\n" +
		"\n" +
		"Pos  Racer        Lane  Notes\n" +
		"---  -----------  ----  -----------\n" +
		"1    Ann          2\n" +
		"2    A*b_[c]|<d>  1     whip | lash\n" +
		"3    Cato\n" +
		"\n" +
		"Moves\n" +
		"\n" +
		"- A*b_[c]|<d> moved 6 spaces\n" +
		"- - Bob stays in the pit\n" +
		"- 3. not a numbered list\n" +
		"\n" +
		"- plain item\n" +
		"- another\n" +
		"\n" +
		"Track after turn 7: turn 7.png\n" +
		"\n" +
		"Full rules: ludi rules (https://example.com/rules(v2))\n" +
		"\n" +
		"roll 2d6 -> 4 + 3 = 7\n" +
		"```\n" +
		"[/code] [b]not bold[/b]\n" +
		"\n" +
		"----------\n" +
		"\n" +
		"Dice log [GM]:\n" +
		"Seed 42, all rolls:\n" +
		"\n" +
		"- Ann: 5\n" +
		"- A*b_[c]|<d>: 6\n"
	if got := samplePost().Text(); got != want {
		t.Errorf("the sample post as text:\n%s\nwant:\n%s", got, want)
	}
	var empty Doc
	if got := empty.Text(); got != "" {
		t.Errorf("an empty doc as text: %q", got)
	}
	var d Doc
	d.P(Link("", "https://example.com/x"), Text(" and "), Link("https://example.com/y", "https://example.com/y"))
	d.Table([]string{"Wide", "B"}, [][]string{{"é", "x"}})
	if got, want := d.Text(), "https://example.com/x and https://example.com/y\n\nWide  B\n----  -\né     x\n"; got != want {
		t.Errorf("links and a table as text: %q, want %q", got, want)
	}
}

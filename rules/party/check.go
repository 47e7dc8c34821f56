package party

import (
	"fmt"
	"strconv"
	"strings"

	"pitwall/race"
)

// CheckFlags implements race.OrderChecker: a move on a board file, which
// the flags say all of.
func (Ruleset) CheckFlags() []race.Flag {
	return []race.Flag{
		{Name: "board", Values: "a board file (YAML)", Need: true},
		{Name: "at", Values: "the space the player is on", Need: true},
		{Name: "movement", Values: "the movement, a whole number", Need: true},
		{Name: "choose", Values: "a fork's next space, once per fork, in order", Repeat: true},
	}
}

// CheckOrder implements race.OrderChecker: every space passed and where the
// player lands. It takes no order text.
func (r Ruleset) CheckOrder(flags map[string]string, text string) (race.CheckedOrder, error) {
	if text != "" {
		return race.CheckedOrder{}, fmt.Errorf("party's order check takes flags only, no orders; got %q", text)
	}
	b, err := LoadBoardFile(flags["board"])
	if err != nil {
		return race.CheckedOrder{}, err
	}
	n, err := strconv.Atoi(flags["movement"])
	if err != nil {
		return race.CheckedOrder{}, fmt.Errorf("--movement is a whole number, such as 3; got %q", flags["movement"])
	}
	var choose []string
	if c, ok := flags["choose"]; ok {
		choose = strings.Split(c, "\n")
	}
	tr, err := b.Move(flags["at"], n, choose)
	if err != nil {
		return race.CheckedOrder{}, err
	}
	says := []string{fmt.Sprintf("From %s, %s: lands on %s.", flags["at"], plural(n, "space"), tr.Landed)}
	if len(tr.Passed) > 0 {
		says = append(says, "The way: "+strings.Join(tr.Passed, ", ")+".")
	}
	return race.CheckedOrder{Says: says, Fields: map[string]any{"passed": tr.Passed, "landed": tr.Landed}}, nil
}

package rtd

import (
	"pitwall/race"
	"strconv"
	"strings"
)

// ActionKind is one of the actions of the Player Action Phase, or the start's Rocket Start.
type ActionKind int

// The actions of the text.
const (
	RocketStart ActionKind = iota // turn 0 only
	DriveAggressively
	DriveDefensively
	Draft
	DeployItem
	RamDriver
	TakePath
	PowerSlide
)

var actionNames = [...]string{"Rocket Start", "Drive Aggressively", "Drive Defensively", "Draft", "Deploy Item", "Ram Driver", "Take Alternate Path", "Power Slide"}

func (k ActionKind) String() string { return actionNames[k] }

// Action is one racer's action for a turn.
type Action struct {
	Kind ActionKind `json:"kind"`
	// For Take Alternate Path: the path's number in its segment, from 1.
	Path int `json:"path,omitempty"`
	// For Deploy Item: how it is used ("", "lay", "throw", "forward", "backward") and at whom.
	How    string `json:"how,omitempty"`
	Target string `json:"target,omitempty"`
	// RocketSkip: at the start, the racer does not risk a Rocket Start (+1 Momentum).
	Safe bool `json:"safe,omitempty"`
}

// String is the canonical text of the action, which Parse reads back.
func (a Action) String() string {
	switch a.Kind {
	case RocketStart:
		if a.Safe {
			return "safe start"
		}
		return "rocket start"
	case TakePath:
		return "path " + strconv.Itoa(a.Path)
	case DeployItem:
		s := "item"
		if a.How != "" {
			s += " " + a.How
		}
		if a.Target != "" {
			s += " at " + a.Target
		}
		return s
	}
	return map[ActionKind]string{DriveAggressively: "aggressive", DriveDefensively: "defensive", Draft: "draft",
		RamDriver: "ram", PowerSlide: "power slide"}[a.Kind]
}

var actionWords = map[string]ActionKind{
	"rocket start": RocketStart, "rocket": RocketStart,
	"aggressive": DriveAggressively, "drive aggressively": DriveAggressively,
	"defensive": DriveDefensively, "drive defensively": DriveDefensively,
	"draft": Draft,
	"ram":   RamDriver, "ram driver": RamDriver,
	"power slide": PowerSlide, "powerslide": PowerSlide, "slide": PowerSlide,
}

// ParseAction reads a racer's action, as a racer would write it:
//
//	rocket start | safe start                         (turn 0)
//	aggressive | defensive | draft | ram | power slide
//	path 2                                             (the segment's second alternate path)
//	item [lay|throw|forward|backward] [at NAME]        (deploy the item in hand)
//
// Case and extra spaces do not matter. It checks the grammar only.
func ParseAction(text string) (Action, error) {
	w := strings.Join(strings.Fields(strings.ToLower(text)), " ")
	if w == "" {
		return Action{}, race.NotUnderstood(CodeNoAction, "no action given; actions: aggressive, defensive, draft, ram, power slide, path N, item [lay|throw|forward|backward] [at NAME]; at the start: rocket start or safe start")
	}
	if k, ok := actionWords[w]; ok {
		return Action{Kind: k}, nil
	}
	switch {
	case w == "safe start" || w == "safe":
		return Action{Kind: RocketStart, Safe: true}, nil
	case strings.HasPrefix(w, "path ") || strings.HasPrefix(w, "take alternate path "):
		n, err := strconv.Atoi(strings.TrimSpace(w[strings.LastIndex(w, " ")+1:]))
		if err != nil || n < 1 || n > 9 {
			return Action{}, race.NotUnderstood(CodeBadPath, "%q: a path is chosen by its number in the segment, such as 'path 1'", strings.TrimSpace(text))
		}
		return Action{Kind: TakePath, Path: n}, nil
	case w == "item" || strings.HasPrefix(w, "item ") || strings.HasPrefix(w, "deploy item"):
		a := Action{Kind: DeployItem}
		orig := strings.Join(strings.Fields(text), " ")
		head := orig
		// Search the text as written: lower-casing can change its length (bad UTF-8).
		if k := indexFold(orig, " at "); k >= 0 { // the target keeps its case as written
			a.Target, head = strings.TrimSpace(orig[k+4:]), orig[:k]
		}
		lower := strings.ToLower(head)
		switch rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(lower, "deploy item"), "item")); rest {
		case "", "lay", "throw", "forward", "backward":
			a.How = rest
		default:
			return Action{}, race.NotUnderstood(CodeBadItemUse, "%q: an item is used as 'item', 'item lay', 'item throw', 'item forward' or 'item backward', then 'at NAME' for a target", strings.TrimSpace(text))
		}
		return a, nil
	}
	return Action{}, race.NotUnderstood(CodeUnknownAction, "%q is not an action; actions: aggressive, defensive, draft, ram, power slide, path N, item; at the start: rocket start or safe start", strings.TrimSpace(text))
}

// indexFold is the byte index of the ASCII word sub in s, ignoring case; -1 if absent.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

package rtd

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"pitwall/race"
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
	// For Deploy Item: which item (0: the item in front), how it is used
	// ("", "lay", "throw", "forward", "backward") and at whom.
	Item   Item   `json:"item,omitempty"`
	How    string `json:"how,omitempty"`
	Target string `json:"target,omitempty"`
	// RocketSkip: at the start, the racer does not risk a Rocket Start (+1 Momentum).
	Safe bool `json:"safe,omitempty"`
	// Pull is what the racer does if it ends the Movement Phase first in its
	// segment and may pull ahead (or break away): PullHold, PullAhead, or ""
	// for the race's default (the option pull-ahead).
	Pull string `json:"pull,omitempty"`
}

// What an order may say of pulling ahead, after the action: "aggressive then hold".
const (
	PullHold  = "hold"       // stay with the pack
	PullAhead = "pull ahead" // try to pull ahead
)

// String is the canonical text of the action, which Parse reads back.
func (a Action) String() string {
	if a.Pull != "" {
		b := a
		b.Pull = ""
		return b.String() + " then " + a.Pull
	}
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
		if a.Item != 0 {
			s += " " + a.Item.String()
		}
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

// pullClause is the end of an order that says what to do about pulling
// ahead: "then hold", ", pull ahead", "; then hold".
var pullClause = regexp.MustCompile(`(?i)(?:\s*[,;]\s*(?:then\s+)?|\s+then\s+)(hold|pull\s+ahead)\s*$`)

// ParseAction reads a racer's action, as a racer would write it:
//
//	rocket start | safe start                         (turn 0)
//	aggressive | defensive | draft | ram | power slide
//	path 2                                             (the segment's second alternate path)
//	item [ITEM] [lay|throw|forward|backward] [at NAME] (deploy the item in front, or the one named)
//
// and after any action but the start's, 'then hold' (stay with the pack
// rather than pull ahead) or 'then pull ahead'. Case and extra spaces do
// not matter. It checks the grammar only.
func ParseAction(text string) (Action, error) {
	// Trailing commas and semicolons end nothing: dropped first, they cannot
	// hide a pull clause inside a target's name ("item at X, pull ahead,").
	text = strings.TrimRightFunc(text, func(r rune) bool { return r == ',' || r == ';' || unicode.IsSpace(r) })
	pull := ""
	if m := pullClause.FindStringSubmatchIndex(text); m != nil {
		pull = PullHold
		if strings.ToLower(text[m[2]:m[2]+1]) == "p" {
			pull = PullAhead
		}
		text = text[:m[0]]
	}
	a, err := parseBare(text)
	if err != nil {
		return Action{}, err
	}
	a.Pull = pull
	return a, nil
}

// parseBare reads an action without its pull clause.
func parseBare(text string) (Action, error) {
	w := strings.Join(strings.Fields(strings.ToLower(text)), " ")
	if w == "" {
		return Action{}, race.NotUnderstood(CodeNoAction, "no action given; actions: aggressive, defensive, draft, ram, power slide, path N, item [ITEM] [lay|throw|forward|backward] [at NAME], each may end 'then hold' or 'then pull ahead'; at the start: rocket start or safe start")
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
			// A name does not end in the comma that may part it from a pull
			// clause ("item at Toad, then hold").
			a.Target, head = strings.TrimRight(orig[k+4:], ",; "), orig[:k]
			if a.Target == "" {
				return Action{}, race.NotUnderstood(CodeBadItemUse, "%q: 'at NAME' names the racer to aim at; no name follows 'at'", strings.TrimSpace(text))
			}
		}
		lower := strings.ToLower(head)
		rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(lower, "deploy item"), "item"))
		if name, how, _ := strings.Cut(rest, " "); name != "" {
			if it, err := ParseItem(name); err == nil { // the item named, of several held
				a.Item, rest = it, how
			}
		}
		switch rest {
		case "", "lay", "throw", "forward", "backward":
			a.How = rest
		default:
			return Action{}, race.NotUnderstood(CodeBadItemUse, "%q: an item is used as 'item', 'item lay', 'item throw', 'item forward' or 'item backward', then 'at NAME' for a target; 'item ITEM ...' names which of the items held, such as 'item mushroom'", strings.TrimSpace(text))
		}
		return a, nil
	}
	return Action{}, race.NotUnderstood(CodeUnknownAction, "%q is not an action; actions: aggressive, defensive, draft, ram, power slide, path N, item, each may end 'then hold' or 'then pull ahead'; at the start: rocket start or safe start", strings.TrimSpace(text))
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

// used is the item a Deploy Item order deploys for x: the one it names, or
// the item in front.
func (a Action) used(x *Racer) Item {
	if a.Item != 0 {
		return a.Item
	}
	return x.Hand
}

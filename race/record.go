package race

// Record is a best mark set in a race, such as a fastest lap. Turns is the
// measure: fewer is better.
type Record struct {
	Kind   string `json:"kind"` // "fastest lap", "fastest completion, 3 laps"
	Seat   int    `json:"seat"`
	Name   string `json:"name"`
	Player string `json:"player"`
	Turns  int    `json:"turns"`
	Turn   int    `json:"turn"`          // the turn it was set on, as posts number them
	Lap    int    `json:"lap,omitempty"` // the lap, for a lap record
}

// Recorder is a ruleset that keeps records: Records is the race's best of
// each kind so far, in a fixed order of kinds.
type Recorder interface {
	Records(s State) []Record
}

// Better says whether a beats b: fewer turns, then set on an earlier turn.
func (a Record) Better(b Record) bool {
	if a.Turns != b.Turns {
		return a.Turns < b.Turns
	}
	return a.Turn < b.Turn
}

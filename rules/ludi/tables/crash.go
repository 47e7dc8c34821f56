package tables

// CrashMode is the row group of 'Probability of Crash Success'.
type CrashMode int

// The two row groups.
const (
	Adjacent   CrashMode = iota // 'Adjacent Landing'
	Overtaking                  // 'During Overtaking'
)

var crashModeNames = [...]string{Adjacent: "adjacent", Overtaking: "overtaking"}

// String gives "adjacent" or "overtaking".
func (m CrashMode) String() string { return label("CrashMode", m, crashModeNames[:]) }

// Target is what a Crash strikes.
type Target int

// The two targets of each crash cell.
const (
	Horses Target = iota
	Chariot
)

var targetNames = [...]string{Horses: "horses", Chariot: "chariot"}

// String gives "horses" or "chariot".
func (t Target) String() string { return label("Target", t, targetNames[:]) }

// CrashCell is one cell of 'Probability of Crash Success': the rolls that
// strike the chariot and those that strike the horses.
type CrashCell struct {
	Chariot, Horses Range
}

// CrashSuccess is 'Probability of Crash Success', one standard D20, indexed
// [mode][Attacker Skill 0..2][Defender Size 0..2]. In each cell the text
// gives the chariot's range first, then the horses'.
var CrashSuccess = [2][3][3]CrashCell{
	Adjacent: {
		// Attacker Skill = 0 (Adjacent Landing); Defender Size = 0, 1, 2
		{
			{Chariot: Range{17, 20, "20%"}, Horses: Range{15, 20, "30%"}},
			{Chariot: Range{15, 20, "30%"}, Horses: Range{15, 20, "30%"}},
			{Chariot: Range{13, 20, "40%"}, Horses: Range{15, 20, "30%"}},
		},
		// Attacker Skill = 1 (Adjacent Landing)
		{
			{Chariot: Range{13, 20, "40%"}, Horses: Range{11, 20, "50%"}},
			{Chariot: Range{11, 20, "50%"}, Horses: Range{11, 20, "50%"}},
			{Chariot: Range{9, 20, "60%"}, Horses: Range{11, 20, "50%"}},
		},
		// Attacker Skill = 2 (Adjacent Landing)
		{
			{Chariot: Range{9, 20, "60%"}, Horses: Range{7, 20, "70%"}},
			{Chariot: Range{7, 20, "70%"}, Horses: Range{7, 20, "70%"}},
			{Chariot: Range{5, 20, "80%"}, Horses: Range{7, 20, "70%"}},
		},
	},
	Overtaking: {
		// Attacker Skill = 0 (During Overtaking); Defender Size = 0, 1, 2
		{
			{Chariot: Range{19, 20, "10%"}, Horses: Range{17, 20, "20%"}},
			{Chariot: Range{17, 20, "20%"}, Horses: Range{17, 20, "20%"}},
			{Chariot: Range{15, 20, "30%"}, Horses: Range{17, 20, "20%"}},
		},
		// Attacker Skill = 1 (During Overtaking)
		{
			{Chariot: Range{15, 20, "30%"}, Horses: Range{13, 20, "40%"}},
			{Chariot: Range{13, 20, "40%"}, Horses: Range{13, 20, "40%"}},
			{Chariot: Range{11, 20, "50%"}, Horses: Range{13, 20, "40%"}},
		},
		// Attacker Skill = 2 (During Overtaking)
		{
			{Chariot: Range{11, 20, "50%"}, Horses: Range{9, 20, "60%"}},
			{Chariot: Range{9, 20, "60%"}, Horses: Range{9, 20, "60%"}},
			{Chariot: Range{7, 20, "70%"}, Horses: Range{9, 20, "60%"}},
		},
	},
}

// CrashHits reads a crash roll: whether an attacker of the given Skill
// strikes target on a defender of the given Size. A mode other than
// Adjacent or Overtaking reads as Overtaking (the lower odds); a target
// other than Horses or Chariot never hits.
func CrashHits(mode CrashMode, skill, defenderSize int, target Target, roll int) bool {
	m := Overtaking
	if mode == Adjacent {
		m = Adjacent
	}
	c := CrashSuccess[m][col(skill)][col(defenderSize)]
	switch target {
	case Chariot:
		return c.Chariot.Has(d20(roll))
	case Horses:
		return c.Horses.Has(d20(roll))
	}
	return false
}

// DefenderEffect is what a Crash does to the defender ('Crash Damage').
type DefenderEffect int

// The three effects the text names.
const (
	NoEffect     DefenderEffect = iota // '0 Quality Inflicted'
	QualityLoss                        // '-1 Quality Inflicted'
	EnduringMove                       // '-1 Move Space (Enduring)'
)

var defenderEffectNames = [...]string{NoEffect: "0 Quality Inflicted", QualityLoss: "-1 Quality Inflicted", EnduringMove: "-1 Move Space (Enduring)"}

// String gives the text's label.
func (e DefenderEffect) String() string { return label("DefenderEffect", e, defenderEffectNames[:]) }

// CrashDamageCell is one cell of 'Crash Damage': the rolls on which the
// attacker damages its own chariot, and the effect on the defender (which
// the roll does not change).
type CrashDamageCell struct {
	Self   Range
	Effect DefenderEffect
}

// CrashDamage is 'Crash Damage', one standard D20, indexed [Attacker Skill +
// Size Combo 0..6][Defender Size/Endurance 0..2]. Each cell reads
// 'Self Damage a-b (p%); <effect on the defender>'.
var CrashDamage = [7][3]CrashDamageCell{
	// Combo = 0; Defender Size/Endurance = 0, 1, 2
	{{Range{9, 20, "60%"}, EnduringMove}, {Range{7, 20, "70%"}, NoEffect}, {Range{5, 20, "80%"}, NoEffect}},
	// Combo = 1
	{{Range{11, 20, "50%"}, EnduringMove}, {Range{9, 20, "60%"}, NoEffect}, {Range{7, 20, "70%"}, NoEffect}},
	// Combo = 2
	{{Range{13, 20, "40%"}, EnduringMove}, {Range{11, 20, "50%"}, QualityLoss}, {Range{9, 20, "60%"}, NoEffect}},
	// Combo = 3
	{{Range{15, 20, "30%"}, EnduringMove}, {Range{13, 20, "40%"}, QualityLoss}, {Range{11, 20, "50%"}, NoEffect}},
	// Combo = 4. Erratum (rules-notes.md): the text prints the Defender = 2
	// cell as 'Self Damage 1-4 (40%)'; 1-4 is 20% of a D20 and breaks the
	// pattern of the column (two rolls fewer per combo), while 13-20 is both
	// the pattern and the printed 40%. We use 13-20.
	{{Range{17, 20, "20%"}, EnduringMove}, {Range{15, 20, "30%"}, QualityLoss}, {Range{13, 20, "40%"}, QualityLoss}},
	// Combo = 5
	{{Range{19, 20, "10%"}, EnduringMove}, {Range{17, 20, "20%"}, QualityLoss}, {Range{15, 20, "30%"}, QualityLoss}},
	// Combo = 6; 'Self Damage (0%)': no roll damages the attacker
	{{Range{0, 0, "0%"}, EnduringMove}, {Range{19, 20, "10%"}, QualityLoss}, {Range{17, 20, "20%"}, QualityLoss}},
}

// CrashDamageRoll reads a crash damage roll: whether the attacker, of the
// given Skill + Size combo (0..6), damages its own chariot, and the effect on
// a defender of the given Size/Endurance (0..2).
func CrashDamageRoll(combo, defender, roll int) (selfDamage bool, effect DefenderEffect) {
	c := CrashDamage[clamp(combo, 0, 6)][col(defender)]
	return c.Self.Has(d20(roll)), c.Effect
}

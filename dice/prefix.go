package dice

// Prefix is a source that shows the faces given, in order, then the first
// face of every die after them, and keeps every die it was asked for: the
// way to walk the tree of a turn's dice, roll by roll, to work out exact
// odds by running the rules themselves.
type Prefix struct {
	Faces []int // the faces to show first (from 0)
	Asked []Die // every die rolled, in order
}

// Face implements Source.
func (p *Prefix) Face(d Die) int {
	i := len(p.Asked)
	p.Asked = append(p.Asked, d)
	if i < len(p.Faces) {
		return p.Faces[i]
	}
	return 0
}

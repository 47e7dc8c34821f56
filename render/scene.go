package render

// Scene is a picture that draws itself in two layers: a background that stays
// the same from turn to turn (a track), and what is drawn over it. Every
// game's race state is one.
type Scene interface {
	// Picture is the size of the picture, in pixels.
	Picture() (w, h float64)
	Background(c Canvas)
	// BackgroundKey names the background within its game and picture size
	// (a track's id), so that a PNG background is drawn once per key.
	BackgroundKey() string
	// Draw draws over the background, under title.
	Draw(c Canvas, title string)
}

// DrawScene draws both layers of s.
func DrawScene(c Canvas, s Scene, title string) {
	s.Background(c)
	s.Draw(c, title)
}

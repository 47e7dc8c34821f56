package racetest

import (
	"image"
	"image/color"
	"testing"
)

func TestChangedPixels(t *testing.T) {
	a := image.NewRGBA(image.Rect(0, 0, 4, 3))
	b := image.NewRGBA(a.Bounds())
	b.Set(1, 1, color.RGBA{A: 1})   // inside
	b.Set(3, 2, color.RGBA{R: 255}) // outside
	b.Set(0, 0, color.RGBA{G: 1})   // outside, on the edge the rectangle leaves out
	if in, out := ChangedPixels(a, b, image.Rect(1, 0, 3, 2)); in != 1 || out != 2 {
		t.Errorf("%d in, %d out; want 1 in, 2 out", in, out)
	}
	if in, out := ChangedPixels(a, a, a.Bounds()); in != 0 || out != 0 {
		t.Errorf("a picture against itself: %d in, %d out", in, out)
	}
}

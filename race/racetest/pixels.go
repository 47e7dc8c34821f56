package racetest

import (
	"bytes"
	"image"
)

// ChangedPixels counts the pixels that differ between a and b (pictures of
// one size) inside r and outside it: a mark that must stay in a part of the
// picture changes none outside.
func ChangedPixels(a, b *image.RGBA, r image.Rectangle) (in, out int) {
	bd := a.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			i := a.PixOffset(x, y)
			if !bytes.Equal(a.Pix[i:i+4], b.Pix[i:i+4]) {
				if image.Pt(x, y).In(r) {
					in++
				} else {
					out++
				}
			}
		}
	}
	return in, out
}

package render

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"
)

// The encoder is lossless: image/png decodes exactly what was drawn.
func TestEncodePNGRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		w, h   int
		opaque bool
	}{{1, 1, true}, {3, 2, false}, {300, 200, true}, {257, 311, false}, {1000, 70, true}} {
		img := image.NewRGBA(image.Rect(0, 0, tc.w, tc.h))
		for y := 0; y < tc.h; y++ {
			for x := 0; x < tc.w; x++ {
				a := uint8(255)
				if !tc.opaque {
					a = uint8(rng.IntN(256))
				}
				// Flat runs with some noise, like a drawing with anti-aliased edges.
				v := uint8((x / 17 * 40) % 256)
				if rng.IntN(10) == 0 {
					v = uint8(rng.IntN(256))
				}
				img.Set(x, y, color.NRGBA{v, uint8(y), uint8(x + y), a})
			}
		}
		var buf bytes.Buffer
		if err := encodePNG(&buf, img); err != nil {
			t.Fatal(err)
		}
		back, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("%dx%d: image/png cannot read it: %v", tc.w, tc.h, err)
		}
		if back.Bounds() != img.Bounds() {
			t.Fatalf("bounds %v, want %v", back.Bounds(), img.Bounds())
		}
		for y := 0; y < tc.h; y++ {
			for x := 0; x < tc.w; x++ {
				want := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
				got := color.NRGBAModel.Convert(back.At(x, y)).(color.NRGBA)
				if want.A == 0 { // fully transparent pixels keep no colour
					want, got = color.NRGBA{}, color.NRGBA{A: got.A}
				}
				if got != want {
					t.Fatalf("%dx%d at (%d,%d): %v, want %v", tc.w, tc.h, x, y, got, want)
				}
			}
		}
	}
}

func BenchmarkEncodePNG(b *testing.B) {
	c := NewPNG(1272, 940, 1)
	c.Rect(0, 0, 1272, 940, Style{Fill: RGB(250, 245, 235)})
	for i := 0; i < 300; i++ {
		c.Circle(Pt(float64(i*4), float64(i*3%900)), 20, Style{Fill: RGB(uint8(i), 100, 50), Stroke: Black})
	}
	b.Run("pitwall", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var buf bytes.Buffer
			encodePNG(&buf, c.img)
			b.ReportMetric(float64(buf.Len()), "bytes")
		}
	})
	b.Run("image-png-bestspeed", func(b *testing.B) {
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		for i := 0; i < b.N; i++ {
			var buf bytes.Buffer
			enc.Encode(&buf, c.img)
			b.ReportMetric(float64(buf.Len()), "bytes")
		}
	})
}

func TestAdler32Combine(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 5, 5552, 65521, 65522, 200000} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(rng.IntN(256))
		}
		for _, cut := range []int{0, n / 3, n / 2, n} {
			got := adler32Combine(adler32.Checksum(data[:cut]), adler32.Checksum(data[cut:]), n-cut)
			if want := adler32.Checksum(data); got != want {
				t.Fatalf("%d bytes cut at %d: %08x, want %08x", n, cut, got, want)
			}
		}
	}
}

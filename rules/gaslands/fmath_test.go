package gaslands

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"testing"
)

// mathInputs are the arguments the math tests try: angles and lengths of
// the table's sizes, small and huge values (the huge ones take trigReduce),
// and the special values.
func mathInputs() [][2]float64 {
	r := rand.New(rand.NewPCG(7, 11))
	var in [][2]float64
	for i := 0; i < 200000; i++ {
		scale := math.Pow(10, float64(r.IntN(14)-4)) // 1e-4 to 1e9
		in = append(in, [2]float64{(r.Float64() - 0.5) * scale, (r.Float64() - 0.5) * scale})
	}
	special := []float64{0, math.Copysign(0, -1), 1, -1, math.Pi, -math.Pi, math.Pi / 2, math.Pi / 4, 1 << 29, 1e300, -1e300,
		math.SmallestNonzeroFloat64, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	for _, a := range special {
		for _, b := range special {
			in = append(in, [2]float64{a, b})
		}
	}
	return in
}

// detFuncs are the package's math functions, next to math's own.
var detFuncs = []struct {
	name     string
	det, std func(x, y float64) float64
}{
	{"sin", func(x, _ float64) float64 { return detSin(x) }, func(x, _ float64) float64 { return math.Sin(x) }},
	{"cos", func(x, _ float64) float64 { return detCos(x) }, func(x, _ float64) float64 { return math.Cos(x) }},
	{"sincos.sin", func(x, _ float64) float64 { s, _ := detSincos(x); return s }, func(x, _ float64) float64 { s, _ := math.Sincos(x); return s }},
	{"sincos.cos", func(x, _ float64) float64 { _, c := detSincos(x); return c }, func(x, _ float64) float64 { _, c := math.Sincos(x); return c }},
	{"atan", func(x, _ float64) float64 { return detAtan(x) }, func(x, _ float64) float64 { return math.Atan(x) }},
	{"atan2", detAtan2, math.Atan2},
	{"hypot", detHypot, math.Hypot},
}

// unfusedBuild says whether math's plain Go functions are compiled without
// FMA here: amd64 below v3 (math.Hypot is SSE2 assembly there, unfused too).
func unfusedBuild() bool {
	if runtime.GOARCH != "amd64" {
		return false
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "GOAMD64" {
			return s.Value == "v1" || s.Value == "v2"
		}
	}
	return false
}

// On a build that does not fuse, the package's functions give math's bits exactly.
func TestDetMathIsGoMath(t *testing.T) {
	if !unfusedBuild() {
		t.Skipf("math is compiled with FMA on %s here; TestDetMathDigests checks this build", runtime.GOARCH)
	}
	in := mathInputs()
	for _, f := range detFuncs {
		for _, a := range in {
			got, want := f.det(a[0], a[1]), f.std(a[0], a[1])
			if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("%s(%v, %v) = %v, math gives %v", f.name, a[0], a[1], got, want)
			}
		}
	}
}

// mathDigests are the SHA-256 (first 8 bytes) of each function's results over
// mathInputs, as math gives them on a default amd64 build: every build must
// give the same.
var mathDigests = map[string]string{
	"sin":        "74addaa61c958a91",
	"cos":        "118f8b97dfd55d30",
	"sincos.sin": "74addaa61c958a91",
	"sincos.cos": "118f8b97dfd55d30",
	"atan":       "014a3e6efe9a6101",
	"atan2":      "5ddce3bcaa863d53",
	"hypot":      "9094c91187184170",
}

func TestDetMathDigests(t *testing.T) {
	in := mathInputs()
	var b [8]byte
	for _, f := range detFuncs {
		h := sha256.New()
		for _, a := range in {
			v := f.det(a[0], a[1])
			if math.IsNaN(v) {
				v = math.NaN() // one NaN
			}
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
			h.Write(b[:])
		}
		got := fmt.Sprintf("%x", h.Sum(nil)[:8])
		if want := mathDigests[f.name]; got != want {
			t.Errorf("%s: digest %s, want %s", f.name, got, want)
		}
	}
}

package gaslands

// The math functions the geometry needs that the math package does not give
// the same on every build: math.Sin, Cos, Sincos, Atan and Atan2 are plain
// Go, and compiled for amd64 v3 or arm64 their polynomials fuse into FMA
// instructions (other bits than a default amd64 build gives); math.Hypot is
// assembly on amd64 and plain Go, fused, on arm64. These are the same
// algorithms, from Go 1.26's math package (sin.go, sincos.go, trig_reduce.go,
// atan.go, atan2.go, hypot.go; Copyright The Go Authors, BSD-style licence),
// with every product that is added or subtracted converted (float64(x*y)),
// which the compiler never fuses: on every build they give the bits that
// math's functions give on a default amd64 build (fmath_test.go checks both).
// The functions of math used as they are (Sqrt, Abs, Floor, Ceil, Min, Max,
// Mod, Remainder, Copysign) are exact or correctly rounded on every build
// and have no product to fuse; fma_test.go keeps the others out.

import (
	"math"
	"math/bits"
)

// Coefficients for sin and cos (math/sin.go).
var (
	sinCoef = [6]float64{
		1.58962301576546568060e-10, // 0x3de5d8fd1fd19ccd
		-2.50507477628578072866e-8, // 0xbe5ae5e5a9291f5d
		2.75573136213857245213e-6,  // 0x3ec71de3567d48a1
		-1.98412698295895385996e-4, // 0xbf2a01a019bfdf03
		8.33333333332211858878e-3,  // 0x3f8111111110f7d0
		-1.66666666666666307295e-1, // 0xbfc5555555555548
	}
	cosCoef = [6]float64{
		-1.13585365213876817300e-11, // 0xbda8fa49a0861a9b
		2.08757008419747316778e-9,   // 0x3e21ee9d7b4e3f05
		-2.75573141792967388112e-7,  // 0xbe927e4f7eac4bc6
		2.48015872888517045348e-5,   // 0x3efa01a019c844f5
		-1.38888888888730564116e-3,  // 0xbf56c16c16c14f91
		4.16666666666665929218e-2,   // 0x3fa555555555554b
	}
)

// horner is ((((c0*x+c1)*x+c2)*x+c3)*x+c4)*x+c5, each step rounded.
func horner(c *[6]float64, x float64) float64 {
	p := c[0]
	for _, k := range c[1:] {
		p = float64(p*x) + k
	}
	return p
}

// sinPoly and cosPoly are the polynomials on the reduced argument z, zz = z*z.
func sinPoly(z, zz float64) float64 { return z + float64(z*zz*horner(&sinCoef, zz)) }
func cosPoly(zz float64) float64 {
	return 1.0 - float64(0.5*zz) + float64(zz*zz*horner(&cosCoef, zz))
}

// reduce maps x >= 0 to its octant j (0 to 7, zeros mapped to the origin)
// and the remainder z, as math's sin, cos and sincos do.
func reduce(x float64) (j uint64, z float64) {
	const (
		PI4A = 7.85398125648498535156e-1  // 0x3fe921fb40000000, Pi/4 split into three parts
		PI4B = 3.77489470793079817668e-8  // 0x3e64442d00000000,
		PI4C = 2.69515142907905952645e-15 // 0x3ce8469898cc5170,
	)
	if x >= reduceThreshold {
		return trigReduce(x)
	}
	j = uint64(x * (4 / math.Pi)) // integer part of x/(Pi/4), as integer for tests on the phase angle
	y := float64(j)               // integer part of x/(Pi/4), as float
	if j&1 == 1 {                 // map zeros to origin
		j++
		y++
	}
	j &= 7                                                          // octant modulo 2Pi radians (360 degrees)
	z = ((x - float64(y*PI4A)) - float64(y*PI4B)) - float64(y*PI4C) // extended precision modular arithmetic
	return j, z
}

// detSin is math.Sin.
func detSin(x float64) float64 {
	switch {
	case x == 0 || math.IsNaN(x):
		return x // ±0 or NaN
	case math.IsInf(x, 0):
		return math.NaN()
	}
	sign := false
	if x < 0 {
		x = -x
		sign = true
	}
	j, z := reduce(x)
	if j > 3 { // reflect in x axis
		sign = !sign
		j -= 4
	}
	zz := float64(z * z)
	var y float64
	if j == 1 || j == 2 {
		y = cosPoly(zz)
	} else {
		y = sinPoly(z, zz)
	}
	if sign {
		y = -y
	}
	return y
}

// detCos is math.Cos.
func detCos(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.NaN()
	}
	sign := false
	j, z := reduce(math.Abs(x))
	if j > 3 {
		j -= 4
		sign = !sign
	}
	if j > 1 {
		sign = !sign
	}
	zz := float64(z * z)
	var y float64
	if j == 1 || j == 2 {
		y = sinPoly(z, zz)
	} else {
		y = cosPoly(zz)
	}
	if sign {
		y = -y
	}
	return y
}

// detSincos is math.Sincos.
func detSincos(x float64) (sin, cos float64) {
	switch {
	case x == 0:
		return x, 1 // ±0, 1
	case math.IsNaN(x) || math.IsInf(x, 0):
		return math.NaN(), math.NaN()
	}
	sinSign, cosSign := false, false
	if x < 0 {
		x = -x
		sinSign = true
	}
	j, z := reduce(x)
	if j > 3 { // reflect in x axis
		j -= 4
		sinSign, cosSign = !sinSign, !cosSign
	}
	if j > 1 {
		cosSign = !cosSign
	}
	zz := float64(z * z)
	cos, sin = cosPoly(zz), sinPoly(z, zz)
	if j == 1 || j == 2 {
		sin, cos = cos, sin
	}
	if cosSign {
		cos = -cos
	}
	if sinSign {
		sin = -sin
	}
	return sin, cos
}

// reduceThreshold is where the simple reduction loses too much: above it,
// trigReduce's Payne-Hanek reduction (math/trig_reduce.go).
const reduceThreshold = 1 << 29

// trigReduce reduces x >= reduceThreshold to its octant and remainder with
// integer arithmetic on the bits of 4/Pi.
func trigReduce(x float64) (j uint64, z float64) {
	const (
		PI4   = math.Pi / 4
		mask  = 0x7FF
		shift = 64 - 11 - 1
		bias  = 1023
	)
	if x < PI4 {
		return 0, x
	}
	ix := math.Float64bits(x)
	exp := int(ix>>shift&mask) - bias - shift
	ix &^= mask << shift
	ix |= 1 << shift
	digit, bitshift := uint(exp+61)/64, uint(exp+61)%64
	z0 := (mPi4[digit] << bitshift) | (mPi4[digit+1] >> (64 - bitshift))
	z1 := (mPi4[digit+1] << bitshift) | (mPi4[digit+2] >> (64 - bitshift))
	z2 := (mPi4[digit+2] << bitshift) | (mPi4[digit+3] >> (64 - bitshift))
	z2hi, _ := bits.Mul64(z2, ix)
	z1hi, z1lo := bits.Mul64(z1, ix)
	z0lo := z0 * ix
	lo, c := bits.Add64(z1lo, z2hi, 0)
	hi, _ := bits.Add64(z0lo, z1hi, c)
	j = hi >> 61
	hi = hi<<3 | lo>>61
	lz := uint(bits.LeadingZeros64(hi))
	e := uint64(bias - (lz + 1))
	hi = (hi << (lz + 1)) | (lo >> (64 - (lz + 1)))
	hi >>= 64 - shift
	hi |= e << shift
	z = math.Float64frombits(hi)
	if j&1 == 1 { // map zeros to origin
		j++
		j &= 7
		z--
	}
	return j, float64(z * PI4)
}

// mPi4 is the binary digits of 4/pi as a uint64 array (math/trig_reduce.go).
var mPi4 = [...]uint64{
	0x0000000000000001,
	0x45f306dc9c882a53,
	0xf84eafa3ea69bb81,
	0xb6c52b3278872083,
	0xfca2c757bd778ac3,
	0x6e48dc74849ba5c0,
	0x0c925dd413a32439,
	0xfc3bd63962534e7d,
	0xd1046bea5d768909,
	0xd338e04d68befc82,
	0x7323ac7306a673e9,
	0x3908bf177bf25076,
	0x3ff12fffbc0b301f,
	0xde5e2316b414da3e,
	0xda6cfd9e4f96136e,
	0x9e8c7ecd3cbfd45a,
	0xea4f758fd7cbe2f6,
	0x7a0e73ef14a525d4,
	0xd7f6bf623f1aba10,
	0xac06608df8f6d757,
}

// xatan evaluates a series valid in the range [0, 0.66] (math/atan.go).
func xatan(x float64) float64 {
	const (
		P0 = -8.750608600031904122785e-01
		P1 = -1.615753718733365076637e+01
		P2 = -7.500855792314704667340e+01
		P3 = -1.228866684490136173410e+02
		P4 = -6.485021904942025371773e+01
		Q0 = +2.485846490142306297962e+01
		Q1 = +1.650270098316988542046e+02
		Q2 = +4.328810604912902668951e+02
		Q3 = +4.853903996359136964868e+02
		Q4 = +1.945506571482613964425e+02
	)
	z := float64(x * x)
	n := float64(P0*z) + P1
	n = float64(n*z) + P2
	n = float64(n*z) + P3
	n = float64(n*z) + P4
	d := z + Q0
	d = float64(d*z) + Q1
	d = float64(d*z) + Q2
	d = float64(d*z) + Q3
	d = float64(d*z) + Q4
	z = float64(z*n) / d
	return float64(x*z) + x
}

// satan reduces its argument (known to be positive) to the range [0, 0.66]
// and calls xatan.
func satan(x float64) float64 {
	const (
		Morebits = 6.123233995736765886130e-17 // pi/2 = PIO2 + Morebits
		Tan3pio8 = 2.41421356237309504880      // tan(3*pi/8)
	)
	if x <= 0.66 {
		return xatan(x)
	}
	if x > Tan3pio8 {
		return math.Pi/2 - xatan(1/x) + Morebits
	}
	return math.Pi/4 + xatan((x-1)/(x+1)) + 0.5*Morebits
}

// detAtan is math.Atan.
func detAtan(x float64) float64 {
	if x == 0 {
		return x
	}
	if x > 0 {
		return satan(x)
	}
	return -satan(-x)
}

// detAtan2 is math.Atan2.
func detAtan2(y, x float64) float64 {
	switch {
	case math.IsNaN(y) || math.IsNaN(x):
		return math.NaN()
	case y == 0:
		if x >= 0 && !math.Signbit(x) {
			return math.Copysign(0, y)
		}
		return math.Copysign(math.Pi, y)
	case x == 0:
		return math.Copysign(math.Pi/2, y)
	case math.IsInf(x, 0):
		if math.IsInf(x, 1) {
			if math.IsInf(y, 0) {
				return math.Copysign(math.Pi/4, y)
			}
			return math.Copysign(0, y)
		}
		if math.IsInf(y, 0) {
			return math.Copysign(3*math.Pi/4, y)
		}
		return math.Copysign(math.Pi, y)
	case math.IsInf(y, 0):
		return math.Copysign(math.Pi/2, y)
	}
	q := detAtan(y / x)
	if x < 0 {
		if q <= 0 {
			return q + math.Pi
		}
		return q - math.Pi
	}
	return q
}

// detHypot is math.Hypot: Sqrt(p*p + q*q), avoiding overflow and underflow.
func detHypot(p, q float64) float64 {
	p, q = math.Abs(p), math.Abs(q)
	switch {
	case math.IsInf(p, 1) || math.IsInf(q, 1):
		return math.Inf(1)
	case math.IsNaN(p) || math.IsNaN(q):
		return math.NaN()
	}
	if p < q {
		p, q = q, p
	}
	if p == 0 {
		return 0
	}
	q = q / p
	return float64(p * math.Sqrt(1+float64(q*q)))
}

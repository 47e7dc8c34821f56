package render

// seatColours are twelve colours told apart at a glance, one a seat, for
// the pictures that draw a counter per racer.
var seatColours = []Color{
	RGB(0xe5, 0x25, 0x21), RGB(0x2e, 0xa0, 0x3c), RGB(0xf4, 0x8f, 0xb1), RGB(0x1e, 0x6f, 0xd9),
	RGB(0xf2, 0xc3, 0x1b), RGB(0x7c, 0x3a, 0xbd), RGB(0x8d, 0x5a, 0x2b), RGB(0x12, 0x12, 0x12),
	RGB(0x16, 0xb5, 0xb5), RGB(0xff, 0x7a, 0x1a), RGB(0x9a, 0xa4, 0xae), RGB(0xb5, 0xe3, 0x4b),
}

// SeatColour is seat's colour; the twelve come round again from seat 12.
func SeatColour(seat int) Color { return seatColours[seat%len(seatColours)] }

// Contrast is ink or white, whichever reads on c: ink on a light colour
// (luma, 0.299 R + 0.587 G + 0.114 B, above 150 of 255), white on a dark one.
func Contrast(c, ink Color) Color {
	if 299*int(c.R)+587*int(c.G)+114*int(c.B) > 150_000 {
		return ink
	}
	return RGB(0xff, 0xff, 0xff)
}

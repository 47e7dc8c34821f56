package render

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"image"
	"io"
	"sync"
)

// encodePNG writes img as a PNG with one fixed filter per row (Up: each
// byte minus the byte above), where image/png tries five filters on every row
// and keeps the best. On drawings of flat colours Up is nearly as small and
// several times faster, which matters when a host renders every turn.
// Opaque images are written as RGB, others as RGBA (non-premultiplied).
func encodePNG(w io.Writer, img *image.RGBA) error {
	b := img.Bounds()
	width, height := b.Dx(), b.Dy()
	opaque := img.Opaque()
	bpp := 4
	colorType := byte(6) // RGBA
	if opaque {
		bpp, colorType = 3, 2 // RGB
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if _, err := bw.WriteString("\x89PNG\r\n\x1a\n"); err != nil {
		return err
	}
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, colorType // 8 bits a sample; compression, filter and interlace 0
	if err := writeChunk(bw, "IHDR", ihdr[:]); err != nil {
		return err
	}
	// Filter and deflate the two halves of the image on two cores: deflate
	// streams join after a sync flush, and the halves' Adler-32 sums combine.
	stride := 1 + width*bpp
	raw := make([]byte, height*stride)
	half := height / 2
	rows := [2][2]int{{0, half}, {half, height}}
	var out [2]bytes.Buffer
	var errs [2]error
	var sums [2]uint32
	var wg sync.WaitGroup
	for i := range rows {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			part := raw[rows[i][0]*stride : rows[i][1]*stride]
			for y := rows[i][0]; y < rows[i][1]; y++ {
				filterRow(raw[y*stride:(y+1)*stride], img, y, opaque, bpp)
			}
			sums[i] = adler32.Checksum(part)
			fw, err := flate.NewWriter(&out[i], flate.BestSpeed)
			if err != nil {
				errs[i] = err
				return
			}
			if _, err := fw.Write(part); err != nil {
				errs[i] = err
				return
			}
			if i == 0 {
				errs[i] = fw.Flush() // a sync flush: the stream goes on in part 2
			} else {
				errs[i] = fw.Close()
			}
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], adler32Combine(sums[0], sums[1], (height-half)*stride))
	cw := &chunkWriter{w: bw, kind: "IDAT"}
	for _, p := range [][]byte{{0x78, 0x01}, out[0].Bytes(), out[1].Bytes(), sum[:]} { // zlib header: deflate, fastest
		if _, err := cw.Write(p); err != nil {
			return err
		}
	}
	if err := cw.flush(); err != nil {
		return err
	}
	if err := writeChunk(bw, "IEND", nil); err != nil {
		return err
	}
	return bw.Flush()
}

// filterRow writes row y of img into line: the filter type (Up) and each
// byte minus the byte above it, as RGB when opaque and RGBA otherwise.
func filterRow(line []byte, img *image.RGBA, y int, opaque bool, bpp int) {
	b := img.Bounds()
	width := b.Dx()
	line[0] = 2 // Up
	out := line[1:]
	row := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):]
	if opaque { // the common case: straight from the pixels, RGB minus the row above
		for x, i := 0, 0; x < width; x, i = x+1, i+3 {
			p := 4 * x
			out[i], out[i+1], out[i+2] = row[p], row[p+1], row[p+2]
		}
		if y > 0 {
			above := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y-1):]
			for x, i := 0, 0; x < width; x, i = x+1, i+3 {
				p := 4 * x
				out[i] -= above[p]
				out[i+1] -= above[p+1]
				out[i+2] -= above[p+2]
			}
		}
		return
	}
	px := func(row []byte, x int) (r, g, bl, a uint8) {
		r, g, bl, a = row[4*x], row[4*x+1], row[4*x+2], row[4*x+3]
		if a != 0 && a != 255 {
			// image.RGBA is premultiplied, PNG is not: undo it exactly as color.NRGBAModel does.
			a16 := uint32(a) * 0x101
			r = uint8((uint32(r) * 0x101 * 0xffff / a16) >> 8)
			g = uint8((uint32(g) * 0x101 * 0xffff / a16) >> 8)
			bl = uint8((uint32(bl) * 0x101 * 0xffff / a16) >> 8)
		}
		return
	}
	var above []byte
	if y > 0 {
		above = img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y-1):]
	}
	for x := 0; x < width; x++ {
		r, g, bl, a := px(row, x)
		if above != nil {
			ar, ag, ab, aa := px(above, x)
			r, g, bl, a = r-ar, g-ag, bl-ab, a-aa
		}
		out[4*x], out[4*x+1], out[4*x+2], out[4*x+3] = r, g, bl, a
	}
}

// adler32Combine is the Adler-32 of two blocks of data joined, from the sum
// of each and the second's length (zlib's adler32_combine).
func adler32Combine(a1, a2 uint32, len2 int) uint32 {
	const base = 65521
	rem := uint32(len2 % base)
	sum1 := a1 & 0xffff
	sum2 := (rem * sum1) % base
	sum1 += (a2 & 0xffff) + base - 1
	sum2 += (a1 >> 16) + (a2 >> 16) + base - rem
	if sum1 >= base {
		sum1 -= base
	}
	if sum1 >= base {
		sum1 -= base
	}
	if sum2 >= base<<1 {
		sum2 -= base << 1
	}
	if sum2 >= base {
		sum2 -= base
	}
	return sum1 | sum2<<16
}

func writeChunk(w io.Writer, kind string, data []byte) error {
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], kind)
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	crc.Write(data)
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], crc.Sum32())
	for _, b := range [][]byte{head[:], data, tail[:]} {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// chunkWriter cuts the compressed stream into IDAT chunks of up to 64 KiB.
type chunkWriter struct {
	w    io.Writer
	kind string
	buf  []byte
}

func (c *chunkWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		k := min(len(p), 1<<16-len(c.buf))
		c.buf = append(c.buf, p[:k]...)
		p = p[k:]
		if len(c.buf) == 1<<16 {
			if err := c.flush(); err != nil {
				return 0, err
			}
		}
	}
	return n, nil
}

func (c *chunkWriter) flush() error {
	if len(c.buf) == 0 {
		return nil
	}
	err := writeChunk(c.w, c.kind, c.buf)
	c.buf = c.buf[:0]
	return err
}

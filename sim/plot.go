package sim

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Chart is one chart of a simulation, drawn as PNG and as SVG; its files
// are Name.png and Name.svg.
type Chart struct {
	Name  string // win-package, finish-start, turns...
	Title string
	PNG   []byte
	SVG   []byte
}

// The size of a chart: wide enough for twelve grid places' labels.
const chartW, chartH = 8 * vg.Inch, 5 * vg.Inch

var (
	barColor  = color.RGBA{R: 0x4c, G: 0x72, B: 0xb0, A: 0xff}
	evenColor = color.RGBA{R: 0xc4, G: 0x4e, B: 0x52, A: 0xff}
)

// GroupTitle is how a chart or a report names a group of rates.
func GroupTitle(group string) string {
	switch group {
	case "start":
		return "place on the grid"
	case "bot":
		return "bot"
	}
	return group
}

// Charts draws r: for every group of rates, the win rate of each value
// with its 95% interval against the even share (and the finish rate, when
// any racer did not finish); and the turns the races took.
func Charts(r Result) ([]Chart, error) {
	st := r.Results
	var out []Chart
	anyDNF := len(st.DNF) > 0
	for _, g := range st.Groups {
		rates := st.By[g]
		if len(rates) == 0 {
			continue
		}
		c, err := rateChart(r, g, rates, true)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
		if anyDNF {
			if c, err = rateChart(r, g, rates, false); err != nil {
				return nil, err
			}
			out = append(out, c)
		}
	}
	if len(st.Turns.Histogram) > 0 {
		c, err := turnsChart(r)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// intervals are bars' tops and their intervals, as error bars read them.
type intervals struct {
	plotter.XYs
	lo, hi []float64
}

func (iv intervals) YError(i int) (float64, float64) {
	return iv.XYs[i].Y - iv.lo[i], iv.hi[i] - iv.XYs[i].Y
}

func rateChart(r Result, group string, rates []Rate, wins bool) (Chart, error) {
	p := plot.New()
	what, name := "win rate", "win-"+group
	if !wins {
		what, name = "finish rate", "finish-"+group
	}
	p.Title.Text = fmt.Sprintf("%s: %s by %s (95%% interval; %d races that ended)", r.Ruleset, what, GroupTitle(group), r.Results.RacesOver)
	p.X.Label.Text = GroupTitle(group)
	p.Y.Label.Text = what + " (%)"
	vals := make(plotter.Values, len(rates))
	iv := intervals{XYs: make(plotter.XYs, len(rates)), lo: make([]float64, len(rates)), hi: make([]float64, len(rates))}
	names := make([]string, len(rates))
	top, long := 0.0, 0
	for i, x := range rates {
		rate, ci := x.WinRate, x.WinCI
		if !wins {
			rate, ci = x.FinishRate, x.FinishCI
		}
		vals[i] = 100 * rate
		iv.XYs[i] = plotter.XY{X: float64(i), Y: 100 * rate}
		iv.lo[i], iv.hi[i] = 100*ci[0], 100*ci[1]
		names[i] = x.Value
		top = max(top, 100*ci[1])
		long = max(long, len(x.Value))
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(max(8, 300/float64(len(rates)+1))))
	if err != nil {
		return Chart{}, err
	}
	bars.Color, bars.LineStyle.Width = barColor, 0
	eb, err := plotter.NewYErrorBars(iv)
	if err != nil {
		return Chart{}, err
	}
	eb.LineStyle.Width = vg.Points(1.5)
	p.Add(bars, eb)
	if wins {
		even := 100 * r.Results.EvenShare
		line, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: even}, {X: float64(len(rates)) - 0.5, Y: even}})
		if err != nil {
			return Chart{}, err
		}
		line.Color, line.Dashes, line.Width = evenColor, []vg.Length{vg.Points(6), vg.Points(4)}, vg.Points(1.5)
		p.Add(line)
		p.Legend.Add(fmt.Sprintf("even share: 1 in %d", r.Results.Setup.Seats), line)
		p.Legend.Top = true
		top = max(top, even)
	}
	p.Add(plotter.NewGrid())
	p.NominalX(names...)
	if len(rates)*long > 90 { // slant long names so that they do not overlap
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
	}
	p.Y.Min, p.Y.Max = 0, math.Min(100, top*1.15+1)
	return render(p, name)
}

func turnsChart(r Result) (Chart, error) {
	t := r.Results.Turns
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: turns per race (%d races that ended; mean %.1f)", r.Ruleset, r.Results.RacesOver, t.Mean)
	p.X.Label.Text = "turns the race took"
	p.Y.Label.Text = "races"
	h := &plotter.Histogram{Width: 1, FillColor: barColor, LineStyle: draw.LineStyle{Color: color.White, Width: vg.Points(0.5)}}
	top := 0.0
	for _, c := range t.Histogram {
		h.Bins = append(h.Bins, plotter.HistogramBin{Min: float64(c.Turns) - 0.5, Max: float64(c.Turns) + 0.5, Weight: float64(c.Races)})
		top = max(top, float64(c.Races))
	}
	mean, err := plotter.NewLine(plotter.XYs{{X: t.Mean, Y: 0}, {X: t.Mean, Y: top * 1.05}})
	if err != nil {
		return Chart{}, err
	}
	mean.Color, mean.Dashes, mean.Width = evenColor, []vg.Length{vg.Points(6), vg.Points(4)}, vg.Points(1.5)
	p.Add(plotter.NewGrid(), h, mean)
	p.Legend.Add(fmt.Sprintf("mean %.1f", t.Mean), mean)
	p.Legend.Top = true
	p.Y.Min = 0
	p.X.Min, p.X.Max = float64(t.Min)-1, float64(t.Max)+1
	return render(p, "turns")
}

// niceTicks labels an axis every 1, 2 or 5 times a power of ten, about
// eight labels in all, with no more decimals than the step needs (gonum's
// default gives three labels, and "25.00" for a count of turns).
type niceTicks struct{}

func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'f', -1, 64)}}
	}
	raw := (hi - lo) / 8
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{2, 5, 10} {
		if step >= raw {
			break
		}
		step = m * mag
	}
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	var ticks []plot.Tick
	for k := math.Ceil(lo / step); k*step <= hi+1e-9*step; k++ {
		v := k * step
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
		if half := v + step/2; half <= hi {
			ticks = append(ticks, plot.Tick{Value: half}) // a minor tick between
		}
	}
	return ticks
}

func render(p *plot.Plot, name string) (Chart, error) {
	c := Chart{Name: name, Title: p.Title.Text}
	p.Title.Padding = vg.Points(8)
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.Y.Tick.Marker = niceTicks{}
	if _, nominal := p.X.Tick.Marker.(plot.ConstantTicks); !nominal {
		p.X.Tick.Marker = niceTicks{}
	}
	for _, f := range []struct {
		format string
		to     *[]byte
	}{{"png", &c.PNG}, {"svg", &c.SVG}} {
		wt, err := p.WriterTo(chartW, chartH, f.format)
		if err != nil {
			return c, fmt.Errorf("drawing %s.%s: %w", name, f.format, err)
		}
		var b bytes.Buffer
		if _, err := wt.WriteTo(&b); err != nil {
			return c, fmt.Errorf("drawing %s.%s: %w", name, f.format, err)
		}
		*f.to = b.Bytes()
	}
	return c, nil
}

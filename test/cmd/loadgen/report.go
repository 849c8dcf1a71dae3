package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"
)

// report is one run's results as written by -json and read by -compare.
type report struct {
	Title     string         `json:"title"`
	CPULabels []string       `json:"cpu_labels,omitempty"`
	Targets   []targetReport `json:"targets"`
	MemLabels []string       `json:"mem_labels,omitempty"`
	// peaks over the whole run, MiB: each set's, and that of their sum
	PeakRSSMiB      []float64 `json:"peak_rss_mib,omitempty"`
	PeakRSSTotalMiB float64   `json:"peak_rss_total_mib,omitempty"`
}

type targetReport struct {
	Name       string  `json:"name"`
	Conns      int     `json:"conns"`
	Secs       float64 `json:"secs"`
	Requests   int     `json:"requests"`
	RPS        float64 `json:"rps"`
	P50        float64 `json:"p50_ms"`
	P90        float64 `json:"p90_ms"`
	P99        float64 `json:"p99_ms"`
	Max        float64 `json:"max_ms"`
	Unexpected int     `json:"unexpected_status"`
	Errors     int     `json:"errors"`
	PeakRSSMiB float64 `json:"peak_rss_mib,omitempty"`
	// server CPU per request, ms, per -cpu set (in CPULabels' order) and summed
	CPU      []float64 `json:"cpu_ms_per_request,omitempty"`
	CPUTotal float64   `json:"cpu_ms_per_request_total,omitempty"`
}

func msf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// summarise turns raw results into the report.
func summarise(title string, results []result, cpuSets, memSets []procSet, peaks []int64, peakTotal int64) report {
	rep := report{Title: title}
	for _, ps := range cpuSets {
		rep.CPULabels = append(rep.CPULabels, ps.label)
	}
	for i, ps := range memSets {
		rep.MemLabels = append(rep.MemLabels, ps.label)
		rep.PeakRSSMiB = append(rep.PeakRSSMiB, float64(peaks[i])/(1<<20))
	}
	rep.PeakRSSTotalMiB = float64(peakTotal) / (1 << 20)
	for _, r := range results {
		lat := append([]time.Duration(nil), r.latencies...)
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		n := len(lat)
		t := targetReport{Name: r.target.name, Conns: r.conc, Secs: r.elapsed.Seconds(), Requests: n,
			RPS: float64(n) / r.elapsed.Seconds(), P50: msf(pct(lat, .50)), P90: msf(pct(lat, .90)),
			P99: msf(pct(lat, .99)), Max: msf(pct(lat, 1)), Unexpected: r.non2xx, Errors: r.errors,
			PeakRSSMiB: float64(r.peakRSS) / (1 << 20)}
		for _, c := range r.cpu {
			per := 0.0
			if n > 0 {
				per = msf(c) / float64(n)
			}
			t.CPU = append(t.CPU, per)
			t.CPUTotal += per
		}
		rep.Targets = append(rep.Targets, t)
	}
	return rep
}

func writeJSON(path string, rep report) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

func readReport(path string) (report, error) {
	var rep report
	data, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(data, &rep)
	}
	if err != nil {
		return rep, fmt.Errorf("read %s: %w", path, err)
	}
	return rep, nil
}

// rate prints a request rate with two decimals below 10.
func rate(v float64) string {
	if v < 10 {
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

// cpuCell prints a CPU time per request, in ms.
func cpuCell(v float64) string {
	if v == 0 {
		return "0"
	}
	if v < 10 {
		return fmt.Sprintf("%.3f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

// cpuParts is "label 0.123 · label 0.456" for one target.
func cpuParts(labels []string, cpu []float64) string {
	var parts []string
	for i, l := range labels {
		if i < len(cpu) {
			parts = append(parts, l+" "+cpuCell(cpu[i]))
		}
	}
	return strings.Join(parts, " · ")
}

// renderReport is one run's table.
func renderReport(rep report) string {
	var b strings.Builder
	if rep.Title != "" {
		fmt.Fprintf(&b, "\n%s\n", rep.Title)
	}
	b.WriteString("\n| target | conns | secs | requests | req/s | p50 ms | p90 ms | p99 ms | max ms | unexpected status | errors | peak RSS MiB |")
	sep := "\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	if len(rep.CPULabels) > 0 {
		b.WriteString(" server CPU ms/req | by process |")
		sep += "---:|---|"
	}
	b.WriteString(sep + "\n")
	for _, t := range rep.Targets {
		rss := "-"
		if t.PeakRSSMiB > 0 {
			rss = fmt.Sprintf("%.0f", t.PeakRSSMiB)
		}
		fmt.Fprintf(&b, "| %s | %d | %.0f | %d | %s | %.2f | %.2f | %.2f | %.2f | %d | %d | %s |", t.Name, t.Conns, t.Secs, t.Requests,
			rate(t.RPS), t.P50, t.P90, t.P99, t.Max, t.Unexpected, t.Errors, rss)
		if len(rep.CPULabels) > 0 {
			fmt.Fprintf(&b, " %s | %s |", cpuCell(t.CPUTotal), cpuParts(rep.CPULabels, t.CPU))
		}
		b.WriteString("\n")
	}
	if len(rep.MemLabels) > 0 {
		var parts []string
		for i, l := range rep.MemLabels {
			parts = append(parts, fmt.Sprintf("%s %.0f", l, rep.PeakRSSMiB[i]))
		}
		fmt.Fprintf(&b, "\nPeak RSS over the run (MiB): %s; together %.0f (peak of the sum)\n", strings.Join(parts, ", "), rep.PeakRSSTotalMiB)
	}
	return b.String()
}

// renderComparison puts two runs side by side, scenario by scenario (by
// target name, in a's order), with b/a ratios: how many times a's request
// rate is b's, and how many times b's CPU per request is a's.
func renderComparison(a, b report) string {
	var s strings.Builder
	fmt.Fprintf(&s, "\n%s vs %s\n\n", a.Title, b.Title)
	s.WriteString("| scenario | A req/s | A p50 ms | A p99 ms | A CPU ms/req | B req/s | B p50 ms | B p99 ms | B CPU ms/req | req/s A÷B | CPU B÷A |\n")
	s.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	byName := map[string]targetReport{}
	for _, t := range b.Targets {
		byName[t.Name] = t
	}
	for _, t := range a.Targets {
		fmt.Fprintf(&s, "| %s | %s | %.2f | %.2f | %s |", t.Name, rate(t.RPS), t.P50, t.P99, cpuCell(t.CPUTotal))
		o, ok := byName[t.Name]
		if !ok {
			s.WriteString(" — | — | — | — | — | — |\n")
			continue
		}
		fmt.Fprintf(&s, " %s | %.2f | %.2f | %s | %s | %s |\n", rate(o.RPS), o.P50, o.P99, cpuCell(o.CPUTotal),
			ratio(t.RPS, o.RPS), ratio(o.CPUTotal, t.CPUTotal))
	}
	s.WriteString("\nA = " + a.Title + "; B = " + b.Title + "\n")
	return s.String()
}

func ratio(x, y float64) string {
	if x == 0 || y == 0 {
		return "—"
	}
	r := x / y
	if r < 10 {
		return fmt.Sprintf("%.1f×", r)
	}
	return fmt.Sprintf("%.0f×", r)
}

// renderScaling is the scaling table of two runs of the same targets at two
// content sizes (hack/bench-scale.sh): each target's median latency and
// server CPU per request in both, their ratios, and a flag where the cost
// grew more than growth times. The cost is the server CPU per request when
// both runs measured it (the machine's other load moves latency more than
// CPU), else the median latency.
func renderScaling(a, b report, growth float64) string {
	var s strings.Builder
	fmt.Fprintf(&s, "\nScaling: %s → %s (flag: cost × > %.2g)\n\n", a.Title, b.Title, growth)
	s.WriteString("| route | A p50 ms | B p50 ms | p50 B÷A | A CPU ms/req | B CPU ms/req | CPU B÷A | |\n")
	s.WriteString("|---|---:|---:|---:|---:|---:|---:|---|\n")
	byName := map[string]targetReport{}
	for _, t := range b.Targets {
		byName[t.Name] = t
	}
	flagged := 0
	for _, t := range a.Targets {
		o, ok := byName[t.Name]
		if !ok {
			fmt.Fprintf(&s, "| %s | %.2f | — | — | %s | — | — | not run at B |\n", t.Name, t.P50, cpuCell(t.CPUTotal))
			continue
		}
		cost := o.P50 / t.P50
		if t.CPUTotal > 0 && o.CPUTotal > 0 {
			cost = o.CPUTotal / t.CPUTotal
		}
		mark := ""
		if cost > growth {
			mark = "**grows**"
			flagged++
		}
		fmt.Fprintf(&s, "| %s | %.2f | %.2f | %s | %s | %s | %s | %s |\n", t.Name, t.P50, o.P50, ratio(o.P50, t.P50),
			cpuCell(t.CPUTotal), cpuCell(o.CPUTotal), ratio(o.CPUTotal, t.CPUTotal), mark)
	}
	fmt.Fprintf(&s, "\nA = %s; B = %s; %d of %d routes grow more than %.2g×\n", a.Title, b.Title, flagged, len(a.Targets), growth)
	return s.String()
}

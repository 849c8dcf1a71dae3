package blocks

import (
	"math"
	"strconv"
	"strings"
)

// Fluid typography (theme.json settings.typography.fluid), as WordPress's
// wp_get_typography_font_size_value computes it: a font size of px or rem
// becomes clamp(min, min + ((1vw - offset) * factor), max), growing with
// the viewport from the minimum viewport width (320px) to the layout's
// wide size (else 1600px). Twenty Twenty-Three's medium body text is 16px
// on a phone and 18px from 1200px on, as on WordPress.

// fluidEnabled reports whether the settings turn fluid typography on.
func fluidEnabled(settings map[string]any) bool {
	switch f := obj(settings, "typography")["fluid"].(type) {
	case bool:
		return f
	case map[string]any:
		return true
	}
	return false
}

// fluidSize is the value of a font size: size, or its fluid clamp();
// fluid is the preset's own "fluid" (false, or {min, max}, or absent).
func fluidSize(settings map[string]any, size string, fluid any) string {
	if f, ok := fluid.(bool); ok && !f || size == "" {
		return size
	}
	fm, _ := fluid.(map[string]any)
	if !fluidEnabled(settings) && fm == nil {
		return size
	}
	val, unit, ok := valueAndUnit(size, "")
	if !ok {
		return size
	}
	fs, _ := obj(settings, "typography")["fluid"].(map[string]any)
	minVW, _ := fs["minViewportWidth"].(string)
	if minVW == "" {
		minVW = "320px"
	}
	maxVW := "1600px"
	if w, _ := obj(settings, "layout")["wideSize"].(string); w != "" {
		if _, _, ok := valueAndUnit(w, ""); ok {
			maxVW = w
		}
	}
	if w, _ := fs["maxViewportWidth"].(string); w != "" {
		maxVW = w
	}
	limitRaw, _ := fs["minFontSize"].(string)
	if _, _, ok := valueAndUnit(limitRaw, ""); !ok {
		limitRaw = "14px"
	}
	limit, _, limitOK := valueAndUnit(limitRaw, unit)
	minRaw, _ := fm["min"].(string)
	maxRaw, _ := fm["max"].(string)
	if limitOK && minRaw == "" && maxRaw == "" && val <= limit {
		return size
	}
	if maxRaw == "" {
		maxRaw = num3(val) + unit
	}
	if minRaw == "" {
		px := val
		if unit != "px" {
			px = val * 16
		}
		factor := math.Min(math.Max(1-0.075*math.Log2(px), 0.25), 0.75)
		calc := round3(val * factor)
		if limitOK && calc <= limit {
			minRaw = num3(limit) + unit
		} else {
			minRaw = num3(calc) + unit
		}
	}
	if v := fluidClamp(minVW, maxVW, minRaw, maxRaw); v != "" {
		return v
	}
	return size
}

// fluidClamp is wp_get_computed_fluid_typography_value (scale factor 1).
func fluidClamp(minVW, maxVW, minRaw, maxRaw string) string {
	minV, unit, ok1 := valueAndUnit(minRaw, "")
	maxV, _, ok2 := valueAndUnit(maxRaw, unit)
	minRem, _, ok3 := valueAndUnit(minRaw, "rem")
	lo, _, ok4 := valueAndUnit(minVW, unit)
	hi, _, ok5 := valueAndUnit(maxVW, unit)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || hi == lo {
		return ""
	}
	factor := round3(100 * ((maxV - minV) / (hi - lo)))
	if factor == 0 {
		factor = 1
	}
	return "clamp(" + minRaw + ", " + num3(minRem) + "rem + ((1vw - " + num3(round3(lo/100)) + unit + ") * " + num3(factor) + "), " + maxRaw + ")"
}

// valueAndUnit is wp_get_typography_value_and_unit for px, rem and em
// (16px each), coerced to the unit to (px or rem) when given.
func valueAndUnit(s, to string) (float64, string, bool) {
	s = strings.TrimSpace(s)
	var unit string
	for _, u := range []string{"rem", "em", "px"} {
		if strings.HasSuffix(s, u) {
			unit = u
			break
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, unit), 64)
	if unit == "" || err != nil {
		return 0, "", false
	}
	if unit == "em" {
		unit = "rem"
	}
	switch {
	case to == "px" && unit == "rem":
		v, unit = v*16, "px"
	case to == "rem" && unit == "px":
		v, unit = v/16, "rem"
	}
	return v, unit, true
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// num3 writes a number as PHP does a float rounded to three places.
func num3(v float64) string { return strconv.FormatFloat(round3(v), 'f', -1, 64) }

// fluidStyles returns styles with every typography.fontSize made fluid
// (WordPress does it for the font sizes of the root, elements and blocks).
func fluidStyles(settings, styles map[string]any) map[string]any {
	if !fluidEnabled(settings) {
		return styles
	}
	out := make(map[string]any, len(styles))
	for k, v := range styles {
		m, ok := v.(map[string]any)
		if !ok {
			out[k] = v
			continue
		}
		if k == "typography" {
			if fs, ok := m["fontSize"].(string); ok {
				c := make(map[string]any, len(m))
				for tk, tv := range m {
					c[tk] = tv
				}
				c["fontSize"] = fluidSize(settings, fs, nil)
				out[k] = c
				continue
			}
		}
		out[k] = fluidStyles(settings, m)
	}
	return out
}

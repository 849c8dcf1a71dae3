package media

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// imageMeta is WordPress's image_meta (wp_read_image_metadata): camera
// settings and credits read from the file's EXIF block. Numbers are kept as
// WordPress emits them: strings.
type imageMeta struct {
	Aperture         string   `json:"aperture"`
	Credit           string   `json:"credit"`
	Camera           string   `json:"camera"`
	Caption          string   `json:"caption"`
	CreatedTimestamp string   `json:"created_timestamp"`
	Copyright        string   `json:"copyright"`
	FocalLength      string   `json:"focal_length"`
	ISO              string   `json:"iso"`
	ShutterSpeed     string   `json:"shutter_speed"`
	Title            string   `json:"title"`
	Orientation      string   `json:"orientation"`
	Keywords         []string `json:"keywords"`
}

func emptyImageMeta() imageMeta {
	return imageMeta{Aperture: "0", CreatedTimestamp: "0", FocalLength: "0", ISO: "0", ShutterSpeed: "0",
		Orientation: "0", Keywords: []string{}}
}

// EXIF tags read (TIFF/EXIF 2.3 numbering).
const (
	tagImageDescription = 0x010E
	tagModel            = 0x0110
	tagOrientation      = 0x0112
	tagArtist           = 0x013B
	tagCopyright        = 0x8298
	tagExposureTime     = 0x829A
	tagFNumber          = 0x829D
	tagExifIFD          = 0x8769
	tagISO              = 0x8827
	tagDateTimeOriginal = 0x9003
	tagFocalLength      = 0x920A
)

// readJPEGMeta finds the EXIF block among a JPEG's APP1 segments and reads
// it; files without one (or another format) yield the empty meta. A
// malformed block is ignored: metadata never fails an upload.
func readJPEGMeta(data []byte) imageMeta {
	m := emptyImageMeta()
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return m
	}
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xFF {
			return m
		}
		marker := data[i+1]
		if marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7) {
			i += 2
			continue
		}
		if marker == 0xDA || marker == 0xD9 { // start of scan: no more metadata
			return m
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if n < 2 || i+2+n > len(data) {
			return m
		}
		seg := data[i+4 : i+2+n]
		if marker == 0xE1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
			parseEXIF(seg[6:], &m)
			// wp_read_image_metadata: a short ImageDescription is taken
			// for the title too; the caption is the description.
			if m.Caption != "" && len(m.Caption) < 80 {
				m.Title = m.Caption
			}
			return m
		}
		i += 2 + n
	}
	return m
}

// jpegMetaHead returns the part of a JPEG file that readJPEGMeta reads:
// its segments up to the start of scan (plus that marker), found by
// walking the segment headers, so the metadata of a spooled upload is read
// without reading its image data. readJPEGMeta gives the same answer for
// the head as for the whole file.
func jpegMetaHead(src io.ReaderAt, size int64) []byte {
	var hdr [4]byte
	end := int64(2)
	for end+4 <= size {
		if _, err := src.ReadAt(hdr[:], end); err != nil || hdr[0] != 0xFF {
			break
		}
		marker := hdr[1]
		if marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7) {
			end += 2
			continue
		}
		if marker == 0xDA || marker == 0xD9 {
			break
		}
		n := int64(binary.BigEndian.Uint16(hdr[2:]))
		if n < 2 || end+2+n > size {
			break
		}
		end += 2 + n
	}
	head := make([]byte, min(end+4, size))
	n, _ := src.ReadAt(head, 0)
	return head[:n]
}

type tiffReader struct {
	b  []byte
	bo binary.ByteOrder
}

func (t *tiffReader) u16(off int) (uint16, bool) {
	if off < 0 || off+2 > len(t.b) {
		return 0, false
	}
	return t.bo.Uint16(t.b[off:]), true
}

func (t *tiffReader) u32(off int) (uint32, bool) {
	if off < 0 || off+4 > len(t.b) {
		return 0, false
	}
	return t.bo.Uint32(t.b[off:]), true
}

// parseEXIF reads IFD0 and the EXIF sub-IFD of a TIFF-structured block.
func parseEXIF(b []byte, m *imageMeta) {
	if len(b) < 8 {
		return
	}
	t := &tiffReader{b: b}
	switch string(b[:2]) {
	case "II":
		t.bo = binary.LittleEndian
	case "MM":
		t.bo = binary.BigEndian
	default:
		return
	}
	ifd0, ok := t.u32(4)
	if !ok {
		return
	}
	exifOff := t.readIFD(int(ifd0), m)
	if exifOff > 0 {
		t.readIFD(exifOff, m)
	}
}

// readIFD applies the IFD's known tags to m and returns the EXIF sub-IFD
// offset when the IFD points to one.
func (t *tiffReader) readIFD(off int, m *imageMeta) (exifOff int) {
	count, ok := t.u16(off)
	if !ok || count > 1000 {
		return 0
	}
	for i := 0; i < int(count); i++ {
		e := off + 2 + 12*i
		tag, ok1 := t.u16(e)
		typ, ok2 := t.u16(e + 2)
		n, ok3 := t.u32(e + 4)
		if !ok1 || !ok2 || !ok3 {
			return exifOff
		}
		switch tag {
		case tagOrientation:
			if v, ok := t.u16(e + 8); ok && v >= 1 && v <= 8 {
				m.Orientation = strconv.Itoa(int(v))
			}
		case tagExifIFD:
			if v, ok := t.u32(e + 8); ok {
				exifOff = int(v)
			}
		case tagISO:
			if v, ok := t.u16(e + 8); ok {
				m.ISO = strconv.Itoa(int(v))
			}
		case tagImageDescription:
			m.Caption = t.ascii(e, typ, n)
		case tagModel:
			m.Camera = t.ascii(e, typ, n)
		case tagArtist:
			m.Credit = t.ascii(e, typ, n)
		case tagCopyright:
			m.Copyright = t.ascii(e, typ, n)
		case tagDateTimeOriginal:
			if ts, err := time.Parse("2006:01:02 15:04:05", t.ascii(e, typ, n)); err == nil {
				m.CreatedTimestamp = strconv.FormatInt(ts.Unix(), 10)
			}
		case tagExposureTime:
			if v, ok := t.rational(e, typ); ok {
				m.ShutterSpeed = formatNumber(v)
			}
		case tagFNumber:
			if v, ok := t.rational(e, typ); ok {
				m.Aperture = formatNumber(float64(int(v*100+0.5)) / 100)
			}
		case tagFocalLength:
			if v, ok := t.rational(e, typ); ok {
				m.FocalLength = formatNumber(v)
			}
		}
	}
	return exifOff
}

// ascii reads an ASCII (type 2) value: inline when it fits in 4 bytes.
func (t *tiffReader) ascii(e int, typ uint16, n uint32) string {
	if typ != 2 || n == 0 || n > 4096 {
		return ""
	}
	start := e + 8
	if n > 4 {
		v, ok := t.u32(e + 8)
		if !ok {
			return ""
		}
		start = int(v)
	}
	if start < 0 || start+int(n) > len(t.b) {
		return ""
	}
	return strings.TrimSpace(strings.TrimRight(string(t.b[start:start+int(n)]), "\x00"))
}

// rational reads an unsigned RATIONAL (type 5) value.
func (t *tiffReader) rational(e int, typ uint16) (float64, bool) {
	if typ != 5 {
		return 0, false
	}
	off, ok := t.u32(e + 8)
	if !ok {
		return 0, false
	}
	num, ok1 := t.u32(int(off))
	den, ok2 := t.u32(int(off) + 4)
	if !ok1 || !ok2 || den == 0 {
		return 0, false
	}
	return float64(num) / float64(den), true
}

func formatNumber(v float64) string {
	if v == float64(int64(v)) {
		return strconv.FormatInt(int64(v), 10)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.6f", v), "0"), ".")
}

// orientation is the EXIF orientation as a number, 1 when absent.
func (m imageMeta) orientation() int {
	n, err := strconv.Atoi(m.Orientation)
	if err != nil || n < 1 || n > 8 {
		return 1
	}
	return n
}

package main

// The images have no zone database of their own (no base image): embed Go's,
// so settings validation and time-zone conversion work in a minimal image.
import _ "time/tzdata"

module siteplane.dev/operator

go 1.26.0

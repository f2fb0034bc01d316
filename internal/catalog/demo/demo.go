// Package demo embeds the demo catalog: 562 cars, 341 motorcycles and other
// powersports vehicles, 308 power boats and 584 tire fitments, authored for
// vds in the same CSV format that `vds ingest` documents.
package demo

import "embed"

// Files holds cars.csv, motorcycles.csv, boats.csv and tire_sizes.csv.
//
//go:embed *.csv
var Files embed.FS

// Names lists the embedded files in ingest order.
var Names = []string{"cars.csv", "motorcycles.csv", "boats.csv", "tire_sizes.csv"}

package metrics

import (
	"database/sql"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/vds-dev/vds/internal/catalog"
)

// State reads what a server holds when Prometheus scrapes it.
type State struct {
	// Catalog is the catalog version served.
	Catalog func() catalog.Version
	// VPICDate is the data date of the vPIC snapshot served; zero for none.
	VPICDate func() time.Time
	// DB reports the database connection pool; nil when the store has none.
	DB func() sql.DBStats
}

func desc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc(name, help, labels, nil)
}

var (
	catalogVersion = desc("vds_catalog_version", "The catalog version served.")
	catalogAge     = desc("vds_catalog_age_seconds", "Seconds since the catalog version served was published.")
	catalogRecords = desc("vds_catalog_records", "Records in the catalog version served, by kind.", "kind")
	vpicSnapshot   = desc("vds_vpic_snapshot_timestamp_seconds", "Date of the NHTSA data in the vPIC snapshot decoding VINs, as a Unix time; absent without a snapshot.")
	dbOpen         = desc("vds_db_open_connections", "Open database connections, in use or idle.")
	dbInUse        = desc("vds_db_in_use_connections", "Database connections in use.")
	dbIdle         = desc("vds_db_idle_connections", "Idle database connections.")
	dbMaxOpen      = desc("vds_db_max_open_connections", "The pool's limit of open connections; 0 is unlimited.")
	dbWaits        = desc("vds_db_waits_total", "Times a query waited for a free connection.")
	dbWaited       = desc("vds_db_wait_seconds_total", "Time spent waiting for a free connection.")
)

// Describe implements prometheus.Collector.
func (s State) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{catalogVersion, catalogAge, catalogRecords, vpicSnapshot, dbOpen, dbInUse, dbIdle, dbMaxOpen, dbWaits, dbWaited} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (s State) Collect(ch chan<- prometheus.Metric) {
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	counter := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
	}
	v := s.Catalog()
	gauge(catalogVersion, float64(v.Number))
	if !v.PublishedAt.IsZero() {
		gauge(catalogAge, time.Since(v.PublishedAt).Seconds())
	}
	for kind, n := range map[catalog.Kind]int{catalog.KindCar: v.Counts.Cars, catalog.KindMotorcycle: v.Counts.Motorcycles,
		catalog.KindBoat: v.Counts.Boats, catalog.KindTireSize: v.Counts.TireSizes} {
		gauge(catalogRecords, float64(n), string(kind))
	}
	if d := s.VPICDate(); !d.IsZero() {
		gauge(vpicSnapshot, float64(d.Unix()))
	}
	if s.DB != nil {
		st := s.DB()
		gauge(dbOpen, float64(st.OpenConnections))
		gauge(dbInUse, float64(st.InUse))
		gauge(dbIdle, float64(st.Idle))
		gauge(dbMaxOpen, float64(st.MaxOpenConnections))
		counter(dbWaits, float64(st.WaitCount))
		counter(dbWaited, st.WaitDuration.Seconds())
	}
}

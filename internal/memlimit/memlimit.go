// Package memlimit sets Go's memory limit from the container's cgroup
// memory limit, as caddy does.
package memlimit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"path"
	"runtime/debug"
	"strconv"
	"strings"
)

const cgroupMount = "sys/fs/cgroup"

// v1Unlimited: v1's "no limit" is the largest page-aligned int64.
const v1Unlimited = 1 << 62

// CgroupLimit returns this process's cgroup memory limit in bytes, 0 for
// none, read below root (os.DirFS("/") for the real one): v1's when a v1
// hierarchy has the memory controller (also on hybrid hosts), else v2's.
func CgroupLimit(root fs.FS) (uint64, error) {
	self, err := fs.ReadFile(root, "proc/self/cgroup")
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	var v1, v2 *string
	sc := bufio.NewScanner(bytes.NewReader(self))
	for sc.Scan() {
		// hierarchy-ID:controllers:path
		f := strings.SplitN(sc.Text(), ":", 3)
		switch {
		case len(f) != 3:
		case f[0] == "0" && f[1] == "":
			v2 = &f[2]
		case containsController(f[1], "memory"):
			v1 = &f[2]
		}
	}
	switch {
	case v1 != nil:
		return smallest(root, cgroupMount+"/memory", *v1, "memory.limit_in_bytes")
	case v2 != nil:
		return smallest(root, cgroupMount, *v2, "memory.max")
	}
	return 0, sc.Err()
}

func containsController(list, name string) bool {
	for c := range strings.SplitSeq(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// smallest is the least limit in file of the cgroup at mount+rel and its
// parents, missing (at the root) or unlimited files aside; a rel outside
// the mount (another namespace's) reads the mount's.
func smallest(root fs.FS, mount, rel, file string) (uint64, error) {
	var limit uint64
	dir := path.Join(mount, rel)
	if !strings.HasPrefix(dir, mount+"/") {
		dir = mount
	}
	for ; ; dir = path.Dir(dir) {
		b, err := fs.ReadFile(root, path.Join(dir, file))
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return 0, err
		default:
			s := strings.TrimSpace(string(b))
			if s != "max" {
				n, err := strconv.ParseUint(s, 10, 64)
				if err != nil {
					return 0, fmt.Errorf("%s: %w", path.Join(dir, file), err)
				}
				if n < v1Unlimited && (limit == 0 || n < limit) {
					limit = n
				}
			}
		}
		if dir == mount {
			return limit, nil
		}
	}
}

// Apply sets Go's memory limit to ratio of the cgroup's, unless GOMEMLIMIT
// is set, ratio is 0 or there is no limit; it logs and returns what it set.
func Apply(root fs.FS, ratio float64, log *slog.Logger) int64 {
	if v, ok := os.LookupEnv("GOMEMLIMIT"); ok {
		log.Info("GOMEMLIMIT is set; the container's memory limit is not applied", "GOMEMLIMIT", v)
		return 0
	}
	if ratio == 0 {
		return 0
	}
	cg, err := CgroupLimit(root)
	if err != nil {
		log.Warn("cannot read the cgroup's memory limit; Go's memory limit stays unset", "err", err)
		return 0
	}
	if cg == 0 {
		log.Debug("no cgroup memory limit; Go's memory limit stays unset")
		return 0
	}
	set := int64(min(float64(cg)*ratio, math.MaxInt64))
	debug.SetMemoryLimit(set)
	log.Info("Go memory limit set from the cgroup", "cgroup_limit_mib", cg>>20, "ratio", ratio, "go_memory_limit_mib", set>>20)
	return set
}

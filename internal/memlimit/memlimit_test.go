package memlimit

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// fakeRoot writes files (path below / → content) to a directory, a root
// file system holding proc/self/cgroup and sys/fs/cgroup.
func fakeRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCgroupLimit(t *testing.T) {
	t.Parallel()
	const self = "proc/self/cgroup"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  uint64
		err   string
	}{
		{name: "v2, cgroup namespace", files: map[string]string{self: "0::/\n", "sys/fs/cgroup/memory.max": "536870912\n"}, want: 512 << 20},
		{name: "v2, no limit", files: map[string]string{self: "0::/\n", "sys/fs/cgroup/memory.max": "max\n"}},
		{name: "v2, the smallest of the cgroup and its parents", files: map[string]string{self: "0::/kubepods/pod1/ctr\n",
			"sys/fs/cgroup/kubepods/pod1/ctr/memory.max": "max\n", "sys/fs/cgroup/kubepods/pod1/memory.max": "268435456\n",
			"sys/fs/cgroup/kubepods/memory.max": "1073741824\n"}, want: 256 << 20},
		{name: "v2, a path outside the mount reads the mount's", files: map[string]string{self: "0::/../../other\n",
			"sys/fs/cgroup/memory.max": "1073741824\n"}, want: 1 << 30},
		{name: "v1", files: map[string]string{self: "5:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n",
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "134217728\n"}, want: 128 << 20},
		{name: "v1, no limit", files: map[string]string{self: "4:memory:/\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n"}},
		{name: "hybrid: memory is v1's", files: map[string]string{self: "4:memory:/ctr\n0::/\n",
			"sys/fs/cgroup/memory/ctr/memory.limit_in_bytes": "134217728\n", "sys/fs/cgroup/unified/memory.max": "max\n"}, want: 128 << 20},
		{name: "no cgroup file", files: map[string]string{}},
		{name: "no memory controller", files: map[string]string{self: "1:cpu:/\n"}},
		{name: "garbage", files: map[string]string{self: "0::/\n", "sys/fs/cgroup/memory.max": "lots\n"}, err: `sys/fs/cgroup/memory.max: strconv.ParseUint: parsing "lots"`},
	} {
		got, err := CgroupLimit(os.DirFS(fakeRoot(t, tc.files)))
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %d, %v; want %d, %q", tc.name, got, err, tc.want, tc.err)
		}
	}
}

// TestApply: ratio of the cgroup's limit becomes Go's, unless GOMEMLIMIT
// is set (Go applied it at start) or the ratio is 0.
func TestApply(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(prev) })
	root := os.DirFS(fakeRoot(t, map[string]string{"proc/self/cgroup": "0::/\n", "sys/fs/cgroup/memory.max": "1073741824\n"}))
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))

	t.Setenv("GOMEMLIMIT", "600MiB")
	if got := Apply(root, 0.9, log); got != 0 || debug.SetMemoryLimit(-1) != prev || !strings.Contains(logs.String(), "GOMEMLIMIT is set") {
		t.Errorf("with GOMEMLIMIT: set %d, limit %d (want %d unchanged); log %s", got, debug.SetMemoryLimit(-1), prev, logs.String())
	}
	os.Unsetenv("GOMEMLIMIT") // t.Setenv restores it
	if got := Apply(root, 0, log); got != 0 || debug.SetMemoryLimit(-1) != prev {
		t.Errorf("ratio 0: set %d, limit %d; want none", got, debug.SetMemoryLimit(-1))
	}
	gib, ratio := uint64(1<<30), 0.9
	want := int64(float64(gib) * ratio)
	if got := Apply(root, ratio, log); got != want || debug.SetMemoryLimit(-1) != want {
		t.Errorf("set %d, limit %d; want %d", got, debug.SetMemoryLimit(-1), want)
	}
	if !strings.Contains(logs.String(), `"Go memory limit set from the cgroup" cgroup_limit_mib=1024 ratio=0.9 go_memory_limit_mib=921`) {
		t.Errorf("log:\n%s", logs.String())
	}
}

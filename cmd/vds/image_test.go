package main

import (
	"archive/tar"
	"bytes"
	"debug/elf"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// maxImageSize bounds the image: the stripped static binary is about
// 35 MB (zstd and the answer cache added 0.7 MB); without -s -w it is
// 49 MB, and any distribution base layer (Debian slim 75 MB, Alpine 8 MB)
// also crosses 38 MB.
const maxImageSize = 38_000_000

// TestImage builds the container image with `make image` (podman; nothing
// is pulled) and checks its configuration and content without running it:
// the files are copied out with podman create and podman cp, and the vds
// inside runs here. Under CI it must run: scripts/test.sh installs podman.
func TestImage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and the image")
	}
	if _, err := exec.LookPath("podman"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("podman is not installed, and CI must build the image: scripts/test.sh installs it when run as root")
		}
		t.Skip("podman is not installed: the image test needs it (apt-get install podman)")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	image := fmt.Sprintf("localhost/vds-imagetest:%d", os.Getpid())
	const version = "v0.0.0-imagetest"
	t.Cleanup(func() { _ = exec.Command("podman", "rmi", "--force", image).Run() })
	build := exec.Command("make", "image", "IMAGE="+image, "IMAGE_CONTEXT="+t.TempDir(),
		"VERSION="+version, "COMMIT=imagetest", "DATE=2026-01-02T03:04:05Z")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("make image: %v\n%s", err, out)
	}

	var inspect []struct {
		Size   int64
		Config struct {
			User         string
			ExposedPorts map[string]struct{}
			Env          []string
			Entrypoint   []string
			Cmd          []string
			Volumes      map[string]struct{}
		}
		HealthCheck *struct{ Test []string }
	}
	if err := json.Unmarshal(podman(t, "image", "inspect", image), &inspect); err != nil || len(inspect) != 1 {
		t.Fatalf("podman image inspect: %v (%d images)", err, len(inspect))
	}
	img := inspect[0]
	if img.Config.User != "65532:65532" {
		t.Errorf("user %q, want the non-root 65532:65532", img.Config.User)
	}
	if !slices.Equal(img.Config.Entrypoint, []string{"/vds"}) || !slices.Equal(img.Config.Cmd, []string{"serve"}) {
		t.Errorf("entrypoint %q cmd %q, want [/vds] [serve]", img.Config.Entrypoint, img.Config.Cmd)
	}
	if _, ok := img.Config.ExposedPorts["8080/tcp"]; !ok || len(img.Config.ExposedPorts) != 1 {
		t.Errorf("exposed ports %v, want 8080/tcp", img.Config.ExposedPorts)
	}
	if _, ok := img.Config.Volumes["/data"]; !ok {
		t.Errorf("volumes %v, want /data", img.Config.Volumes)
	}
	for _, kv := range []string{"VDS_SERVER_ADDR=0.0.0.0:8080", "XDG_DATA_HOME=/data"} {
		if !slices.Contains(img.Config.Env, kv) {
			t.Errorf("environment %q lacks %s", img.Config.Env, kv)
		}
	}
	if img.HealthCheck == nil || !slices.Equal(img.HealthCheck.Test, []string{"CMD", "/vds", "healthcheck"}) {
		t.Errorf("healthcheck %+v, want CMD /vds healthcheck", img.HealthCheck)
	}
	if img.Size <= 0 || img.Size > maxImageSize {
		t.Errorf("image size %d bytes, want at most %d", img.Size, maxImageSize)
	}
	t.Logf("image size %d bytes", img.Size)

	// The files, from a container that is created, never started.
	ctr := strings.TrimSpace(string(podman(t, "create", "--health-cmd", "none", image)))
	t.Cleanup(func() { _ = exec.Command("podman", "rm", "--force", ctr).Run() })
	files := map[string]*tar.Header{}
	bin := filepath.Join(t.TempDir(), "vds")
	tr := tar.NewReader(bytes.NewReader(podman(t, "cp", ctr+":/", "-")))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("podman cp: %v", err)
		}
		name := "/" + strings.TrimPrefix(h.Name, "./")
		files[name] = h
		switch name {
		case "/vds":
			writeFile(t, bin, tr)
		case "/etc/ssl/certs/ca-certificates.crt":
			if b, _ := io.ReadAll(tr); bytes.Count(b, []byte("BEGIN CERTIFICATE")) < 50 {
				t.Errorf("the CA bundle holds %d certificates", bytes.Count(b, []byte("BEGIN CERTIFICATE")))
			}
		}
	}
	if d := files["/data"]; d == nil || d.Typeflag != tar.TypeDir || d.Uid != 65532 || d.Gid != 65532 {
		t.Errorf("/data is %+v, want a directory owned by 65532:65532", d)
	}
	if v := files["/vds"]; v == nil || v.Mode&0o111 != 0o111 {
		t.Fatalf("/vds is %+v, want an executable file", v)
	}
	for _, want := range []string{"/etc/ssl/certs/ca-certificates.crt", "/data/README"} {
		if files[want] == nil {
			t.Errorf("the image has no %s", want)
		}
	}

	// The vds inside: static (no ELF interpreter) and stamped by make.
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary has an ELF interpreter: it is not static (CGO_ENABLED=0)")
		}
	}
	if got := versionOf(t, bin); got.Version != version || got.Commit != "imagetest" || got.Platform != "linux/"+runtime.GOARCH {
		t.Errorf("the image's vds reports %+v, want %s, imagetest, linux/%s", got, version, runtime.GOARCH)
	}
}

// podman runs podman with args and returns its standard output.
func podman(t *testing.T, args ...string) []byte {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command("podman", args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("podman %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

func writeFile(t *testing.T, path string, r io.Reader) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(f, r); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

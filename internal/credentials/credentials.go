// Package credentials stores the client's tokens, one per vds instance
// (server URL), and which instance is current, in an owner-only YAML file.
package credentials

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Credentials are the stored instances, by normalised URL, and the current one.
type Credentials struct {
	// Current is the instance used when neither --url nor VDS_URL names one;
	// logging out keeps it current.
	Current   string              `yaml:"current,omitempty"`
	Instances map[string]Instance `yaml:"instances,omitempty"`
}

// file is what Load reads: Credentials, or an old file's single url and
// token, migrated on the next save.
type file struct {
	Credentials `yaml:",inline"`
	URL         string `yaml:"url"`
	Token       string `yaml:"token"`
}

// Instance is what is stored for one instance.
type Instance struct {
	Token string `yaml:"token"`
}

// Path is where the credentials live, under dir (the vds config directory).
func Path(dir string) string { return filepath.Join(dir, "credentials") }

// NormalizeURL checks that raw is an http(s) server root and spells it one
// way: lower-case scheme and host, no default port, no trailing slash, and
// no trailing /v1 (the REST API's URL names its server too).
func NormalizeURL(raw string) (string, error) {
	s := strings.TrimRight(strings.TrimSpace(raw), "/")
	s = strings.TrimRight(strings.TrimSuffix(s, "/v1"), "/")
	u, err := url.Parse(s) // lower-cases the scheme
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("server URL %q: want http://HOST[:PORT] or https://HOST[:PORT]", raw)
	}
	u.Host = strings.ToLower(u.Host)
	if port := u.Port(); (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		u.Host = strings.TrimSuffix(u.Host, ":"+port)
	}
	return u.String(), nil
}

// Token is the token stored for the instance at rawURL, or "".
func (c *Credentials) Token(rawURL string) string {
	u, err := NormalizeURL(rawURL)
	if err != nil {
		return ""
	}
	return c.Instances[u].Token
}

// Set stores token for the instance at rawURL and makes it current.
func (c *Credentials) Set(rawURL, token string) error {
	u, err := NormalizeURL(rawURL)
	if err != nil {
		return err
	}
	if c.Instances == nil {
		c.Instances = map[string]Instance{}
	}
	c.Instances[u] = Instance{Token: token}
	c.Current = u
	return nil
}

// Remove forgets the token of the instance at rawURL; it reports whether
// there was one. The current instance stays current.
func (c *Credentials) Remove(rawURL string) bool {
	u, err := NormalizeURL(rawURL)
	if err != nil {
		return false
	}
	_, ok := c.Instances[u]
	delete(c.Instances, u)
	return ok
}

// Switch makes the stored instance at rawURL current.
func (c *Credentials) Switch(rawURL string) error {
	u, err := NormalizeURL(rawURL)
	if err != nil {
		return err
	}
	if _, ok := c.Instances[u]; !ok {
		return fmt.Errorf("%w: %s", ErrNotStored, u)
	}
	c.Current = u
	return nil
}

// ErrNotStored is Switch's error for an instance without a stored token.
var ErrNotStored = errors.New("no token stored")

// URLs lists the stored instances, sorted.
func (c *Credentials) URLs() []string { return slices.Sorted(maps.Keys(c.Instances)) }

// Load reads the credentials; a missing file gives empty credentials.
func Load(path string) (Credentials, error) {
	var f file
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return f.Credentials, nil
	}
	if err != nil {
		return f.Credentials, fmt.Errorf("read credentials: %w", err)
	}
	if err := yaml.Unmarshal(b, &f); err != nil {
		return f.Credentials, fmt.Errorf("read credentials %s: %w", path, err)
	}
	c := f.Credentials
	if f.URL == "" {
		return c, nil
	}
	u, err := NormalizeURL(f.URL)
	if err != nil {
		return c, fmt.Errorf("read credentials %s: %w", path, err)
	}
	if _, ok := c.Instances[u]; !ok && f.Token != "" {
		if c.Instances == nil {
			c.Instances = map[string]Instance{}
		}
		c.Instances[u] = Instance{Token: f.Token}
	}
	if c.Current == "" {
		c.Current = u
	}
	return c, nil
}

// Save writes with mode 0600, atomically, so a crash never leaves half a token.
func Save(path string, c Credentials) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save credentials: %w", err)
	}
	b, err := yaml.Marshal(c)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".credentials-*")
	if err != nil {
		return fmt.Errorf("save credentials: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("save credentials: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("save credentials: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save credentials: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("save credentials: %w", err)
	}
	return nil
}

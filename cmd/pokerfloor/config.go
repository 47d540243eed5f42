package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"
)

// checkConfigKeys refuses a config file with a key that no command reads: viper would ignore
// `tableSize` or `seeed` without a word, and the run would quietly use the default. The file's
// shape is the command tree: one section per command (run:), nested for subcommands
// (structure: {show: ...}), and in each section the command's own flags by their long names.
func checkConfigKeys(file string, root *cobra.Command) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return usageErrorf("config file %s: %v", file, err)
	}
	tree, err := decodeTree(file, data)
	if err != nil {
		return usageErrorf("config file %s: %v", file, err)
	}
	if tree == nil {
		return nil // an empty file sets nothing
	}
	top, ok := tree.(map[string]any)
	if !ok {
		return usageErrorf("config file %s: expected sections named after the commands (run: {players: 100}), got %s",
			file, describeValue(tree))
	}
	var problems []string
	checkSection(root, top, "", &problems)
	if len(problems) > 0 {
		slices.Sort(problems)
		return usageErrorf("config file %s: %s", file, strings.Join(problems, "; "))
	}
	return nil
}

// checkSection checks the keys of cmd's section (the root's is the whole file) against cmd's
// subcommands and flags, and recurses into the subcommands' sections.
func checkSection(cmd *cobra.Command, section map[string]any, path string, problems *[]string) {
	subs := map[string]*cobra.Command{}
	for _, c := range cmd.Commands() {
		if c.Name() != "help" && c.Name() != "completion" {
			subs[c.Name()] = c
		}
	}
	flags := map[string]bool{}
	if cmd.HasParent() {
		cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "help" {
				flags[f.Name] = true
			}
		})
	}
	known := make([]string, 0, len(subs)+len(flags))
	for name := range subs {
		known = append(known, name)
	}
	for name := range flags {
		known = append(known, name)
	}
	slices.Sort(known)
	var unknown []string
	for _, key := range sortedKeys(section) {
		value := section[key]
		full := key
		if path != "" {
			full = path + "." + key
		}
		if sub, ok := subs[key]; ok {
			m, isMap := value.(map[string]any)
			if !isMap {
				*problems = append(*problems, fmt.Sprintf("%s is a command's section and takes its flags (%s: {%s: ...}), got %s",
					full, key, firstFlag(sub), describeValue(value)))
				continue
			}
			checkSection(sub, m, full, problems)
			continue
		}
		if flags[key] {
			continue
		}
		msg := full
		if s := closest(key, known); s != "" {
			if path != "" {
				s = path + "." + s
			}
			msg += fmt.Sprintf(" (did you mean %s?)", s)
		}
		unknown = append(unknown, msg)
	}
	if len(unknown) == 0 {
		return
	}
	msg := "unknown key " + unknown[0]
	if len(unknown) > 1 {
		msg = "unknown keys " + strings.Join(unknown, ", ")
	}
	if path == "" {
		msg += "; the file has one section per command: " + strings.Join(known, ", ")
	} else {
		msg += fmt.Sprintf("; %s takes %s", path, strings.Join(known, ", "))
	}
	*problems = append(*problems, msg)
}

// firstFlag names one of cmd's flags, for an example.
func firstFlag(cmd *cobra.Command) string {
	name := "flag"
	found := false
	cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
		if !found && f.Name != "help" {
			name, found = f.Name, true
		}
	})
	return name
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// decodeTree decodes a YAML, TOML or JSON file, by its extension, into maps, lists and scalars.
func decodeTree(file string, data []byte) (any, error) {
	var tree any
	switch ext := strings.ToLower(filepath.Ext(file)); ext {
	case ".yaml", ".yml":
		if err := yaml.Unmarshal(data, &tree); err != nil {
			return nil, fmt.Errorf("not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
		}
	case ".toml":
		if err := toml.Unmarshal(data, &tree); err != nil {
			if de, ok := err.(*toml.DecodeError); ok {
				row, col := de.Position()
				return nil, fmt.Errorf("not valid TOML: line %d, column %d: %s", row, col, de.Error())
			}
			return nil, fmt.Errorf("not valid TOML: %v", err)
		}
	case ".json":
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		if err := d.Decode(&tree); err != nil {
			if len(bytes.TrimSpace(data)) == 0 {
				return nil, nil
			}
			return nil, fmt.Errorf("not valid JSON: %s", describeJSONError(data, err))
		}
		if d.More() {
			return nil, fmt.Errorf("not valid JSON: more after the first value")
		}
	default:
		return nil, fmt.Errorf("the name must end in .yaml, .yml, .toml or .json (it says which format the file is in)")
	}
	return tree, nil
}

// describeJSONError adds the line to a JSON syntax error, which gives only a byte offset.
func describeJSONError(data []byte, err error) string {
	var offset int64 = -1
	switch e := err.(type) {
	case *json.SyntaxError:
		offset = e.Offset
	case *json.UnmarshalTypeError:
		offset = e.Offset
	}
	if offset < 0 || offset > int64(len(data)) {
		return err.Error()
	}
	line := 1 + bytes.Count(data[:offset], []byte("\n"))
	return fmt.Sprintf("line %d: %v", line, err)
}

// describeValue names a decoded value's kind for an error message: a list, the text "ten".
func describeValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "nothing"
	case map[string]any:
		return "a table of keys"
	case []any:
		return "a list"
	case string:
		return fmt.Sprintf("the text %q", x)
	case bool:
		return fmt.Sprintf("%v", x)
	default:
		return fmt.Sprintf("%v", x)
	}
}

// closest is the known name nearest to key: the same letters in other case or punctuation
// (tableSize, table_size for table-size), or at most two edits away (seeed for seed); "" if none.
func closest(key string, known []string) string {
	norm := func(s string) string {
		return strings.NewReplacer("-", "", "_", "", ".", "").Replace(strings.ToLower(s))
	}
	k := norm(key)
	best, bestDist := "", 3
	for _, name := range known {
		n := norm(name)
		if n == k {
			return name
		}
		if d := editDistance(k, n); d < bestDist {
			best, bestDist = name, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, for suggestions (short strings).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"
)

// structureDoc is where the structure file's shape is written down for people.
const structureDoc = "docs/structure.md"

func newStructureCommand(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "structure",
		Short: "List the built-in blind structures, or print one as a file to start your own from",
		Long: "A blind structure is the starting stack and the published schedule of levels and breaks\n" +
			"(rules B3, R2). `run --structure` takes a built-in one by name or a .yaml, .toml or .json file;\n" +
			"`structure show NAME` prints a built-in one in that file format (" + structureDoc + " describes it).",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List the built-in structures",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			for _, name := range floor.StructureNames() {
				s, err := floor.BuiltinStructure(name)
				if err != nil {
					return err
				}
				fmt.Fprintf(out, "%-9s %s\n", name, summarizeStructure(s))
			}
			return nil
		},
	}
	show := &cobra.Command{
		Use:     "show NAME",
		Short:   "Print a built-in structure in the structure file format",
		Example: "  pokerfloor structure show turbo > club.yaml\n  pokerfloor run --structure club.yaml",
		Args:    cobra.ArbitraryArgs, // checked below, for the usage error's exit status
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErrorf("structure show takes one name (%s), got %d", strings.Join(floor.StructureNames(), ", "), len(args))
			}
			s, err := floor.BuiltinStructure(args[0])
			if err != nil {
				return usageErrorf("structure show %q: no such built-in structure (%s)", args[0], strings.Join(floor.StructureNames(), ", "))
			}
			format := v.GetString("structure.show.format")
			return writeStructure(cmd.OutOrStdout(), s, format)
		},
	}
	show.Flags().String("format", "yaml", "yaml, toml or json")
	cmd.AddCommand(list, show)
	return cmd
}

// summarizeStructure is one line about a structure: its stack, levels and breaks.
func summarizeStructure(s floor.Structure) string {
	levels, breaks, minutes := 0, 0, 0
	for _, l := range s.Levels {
		if l.Break {
			breaks++
			continue
		}
		levels++
		if minutes == 0 {
			minutes = l.Minutes
		}
	}
	bb := int64(0)
	if len(s.Levels) > 0 {
		bb = s.Levels[0].BigBlind
	}
	return fmt.Sprintf("%s chips (%d big blinds), %d levels of %d minutes, %d breaks",
		formatCount(s.StartingStack), s.StartingStack/max(bb, 1), levels, minutes, breaks)
}

// writeStructure writes s as a structure file in format (yaml, toml or json), one level a line
// where the format allows it.
func writeStructure(w io.Writer, s floor.Structure, format string) error {
	s.Speed = 0 // --speed sets it, never the file
	switch strings.ToLower(format) {
	case "yaml", "yml":
		var doc yaml.Node
		if err := doc.Encode(s); err != nil {
			return err
		}
		// One level a line: a schedule reads down the page.
		for i := 0; i+1 < len(doc.Content); i += 2 {
			if doc.Content[i].Value == "levels" {
				for _, l := range doc.Content[i+1].Content {
					l.Style = yaml.FlowStyle
				}
			}
			if doc.Content[i].Value == "chips" {
				doc.Content[i+1].Style = yaml.FlowStyle
			}
		}
		fmt.Fprintf(w, "# %s: the built-in %q structure (%s)\n", structureDoc, s.Name, summarizeStructure(s))
		enc := yaml.NewEncoder(w)
		enc.SetIndent(2)
		if err := enc.Encode(&doc); err != nil {
			return err
		}
		return enc.Close()
	case "toml":
		fmt.Fprintf(w, "# %s: the built-in %q structure (%s)\n", structureDoc, s.Name, summarizeStructure(s))
		enc := toml.NewEncoder(w)
		enc.SetArraysMultiline(false)
		return enc.Encode(s)
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	default:
		return usageErrorf("--format %q: yaml, toml or json", format)
	}
}

// loadStructure returns the built-in structure called name, or else reads the file at that path,
// decoding it by its extension.
func loadStructure(name string) (floor.Structure, error) {
	if name == "" {
		return floor.Structure{}, usageErrorf("--structure is empty: one of %s, or a file", strings.Join(floor.StructureNames(), ", "))
	}
	if s, err := floor.BuiltinStructure(name); err == nil {
		return s, nil
	}
	data, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) && !strings.ContainsAny(name, `./\`) {
		return floor.Structure{}, usageErrorf("--structure %q: no such built-in structure (%s) or file",
			name, strings.Join(floor.StructureNames(), ", "))
	}
	if err != nil {
		return floor.Structure{}, usageErrorf("--structure: %v", err)
	}
	switch ext := strings.ToLower(filepath.Ext(name)); ext {
	case ".json", ".yaml", ".yml", ".toml":
	default:
		return floor.Structure{}, usageErrorf("--structure %s: a structure file ends in .json, .yaml, .yml or .toml (%s)", name, structureDoc)
	}
	s, err := decodeStructureFile(name, data)
	if err != nil {
		// Validate joins every problem with newlines; the command's error is one line.
		return floor.Structure{}, usageErrorf("--structure %s: %s", name, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	}
	return s, nil
}

// decodeStructureFile decodes a structure file and checks it. The file is first read as plain maps
// and lists and checked against the structure's fields by the names the file uses (startingStack,
// levels[3].smallBlind), so that a mistake is reported in those names rather than in a parser's
// words about Go types; what passes is decoded strictly and validated by the rules.
func decodeStructureFile(name string, data []byte) (floor.Structure, error) {
	tree, err := decodeTree(name, data)
	if err != nil {
		return floor.Structure{}, err
	}
	if tree == nil {
		return floor.Structure{}, fmt.Errorf("the file is empty: a structure has startingStack and levels (%s; `pokerfloor structure show turbo` prints one)", structureDoc)
	}
	var problems []string
	checkFields(tree, reflect.TypeFor[floor.Structure](), "", &problems)
	if len(problems) > 0 {
		return floor.Structure{}, errors.New(strings.Join(problems, "; "))
	}
	plain, err := json.Marshal(normalizeTree(tree))
	if err != nil {
		return floor.Structure{}, err
	}
	s, err := floor.ParseStructure(plain, floor.DecodeJSON)
	if err != nil {
		return floor.Structure{}, err
	}
	return s, nil
}

// fileOnlyFields are Structure fields a file may not set, with the reason.
var fileOnlyFields = map[string]string{"speed": "the clock's speed is set by run --speed, not in the file"}

// checkFields checks value against the struct type t: a table whose keys are t's fields (by their
// json names, which the YAML and TOML names match), each of the right kind. Problems are added
// with the path to the value.
func checkFields(value any, t reflect.Type, path string, problems *[]string) {
	m, ok := value.(map[string]any)
	what := "a structure"
	if t == reflect.TypeFor[floor.Level]() {
		what = "a level"
	}
	if !ok {
		*problems = append(*problems, fmt.Sprintf("%s: expected %s (a table of %s), got %s", pathOr(path, "the file"), what,
			strings.Join(fieldNames(t), ", "), describeValue(value)))
		return
	}
	fields := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		if name := jsonName(f); name != "" {
			if _, skip := fileOnlyFields[name]; !skip || t != reflect.TypeFor[floor.Structure]() {
				fields[name] = f
			}
		}
	}
	for _, key := range sortedKeys(m) {
		at := key
		if path != "" {
			at = path + "." + key
		}
		f, ok := fields[key]
		if !ok {
			if why, refused := fileOnlyFields[key]; refused && t == reflect.TypeFor[floor.Structure]() {
				*problems = append(*problems, fmt.Sprintf("%s: %s", at, why))
				continue
			}
			msg := fmt.Sprintf("unknown field %s", at)
			if s := closest(key, fieldNames(t)); s != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", s)
			}
			*problems = append(*problems, fmt.Sprintf("%s; %s has %s", msg, what, strings.Join(fieldNames(t), ", ")))
			continue
		}
		checkKind(m[key], f.Type, at, problems)
	}
}

// checkKind checks one value against a field's Go type: whole numbers, true or false, text, lists.
func checkKind(v any, t reflect.Type, at string, problems *[]string) {
	bad := func(want string) {
		*problems = append(*problems, fmt.Sprintf("%s: expected %s, got %s", at, want, describeValue(v)))
	}
	switch t.Kind() {
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			bad("true or false")
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			bad("text")
		}
	case reflect.Int, reflect.Int64, reflect.Int32:
		if _, ok := wholeNumber(v); !ok {
			bad("a whole number")
		}
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			bad("a list")
			return
		}
		for i, item := range list {
			itemAt := fmt.Sprintf("%s[%d]", at, i)
			if t.Elem().Kind() == reflect.Struct {
				checkFields(item, t.Elem(), itemAt, problems)
			} else {
				checkKind(item, t.Elem(), itemAt, problems)
			}
		}
	}
}

// wholeNumber reads an integer as any of the three parsers gives it.
func wholeNumber(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	case uint64:
		return int64(x), x <= math.MaxInt64
	case float64:
		return int64(x), x == math.Trunc(x) && math.Abs(x) < 1<<53
	case json.Number:
		n, err := x.Int64()
		return n, err == nil
	}
	return 0, false
}

// normalizeTree makes the numbers of a checked tree plain integers, for encoding/json.
func normalizeTree(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalizeTree(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalizeTree(e)
		}
		return out
	}
	if n, ok := wholeNumber(v); ok {
		if _, isBool := v.(bool); !isBool {
			return n
		}
	}
	return v
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" || !f.IsExported() {
		return ""
	}
	if name == "" {
		return f.Name
	}
	return name
}

// fieldNames lists the fields a file may set in t, in the struct's order.
func fieldNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		name := jsonName(t.Field(i))
		if _, refused := fileOnlyFields[name]; name == "" || refused && t == reflect.TypeFor[floor.Structure]() {
			continue
		}
		names = append(names, name)
	}
	return slices.Clip(names)
}

func pathOr(path, empty string) string {
	if path == "" {
		return empty
	}
	return path
}

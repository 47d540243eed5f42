package plugin

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/spf13/cobra"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// playerID is the pattern of a player's ID in the API (Entry.Player).
var playerID = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$`)

// maxCSVErrors bounds how many bad lines one run reports.
const maxCSVErrors = 20

var entryKinds = []pokerv1.EntryKind{pokerv1.EntryFirst, pokerv1.EntryReEntry, pokerv1.EntryRebuy, pokerv1.EntryAddOn}

// csvError lists the bad lines of an entries file.
type csvError struct {
	file  string
	lines []string
}

func (e *csvError) Error() string {
	return fmt.Sprintf("%s: %d bad line(s), nothing registered:\n  %s", e.file, len(e.lines), strings.Join(e.lines, "\n  "))
}

// parseEntries reads an entries file: a header naming the columns player (required), kind
// (entry, reEntry, rebuy or addOn; entry when empty) and displayName, in any order, then one
// entry a line. Every bad line is reported with its number; one player and kind appear once.
func parseEntries(name string, r io.Reader) ([]pokerv1.Entry, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	bad := &csvError{file: name}
	fail := func(line int, format string, args ...any) {
		if len(bad.lines) < maxCSVErrors {
			bad.lines = append(bad.lines, fmt.Sprintf("line %d: ", line)+fmt.Sprintf(format, args...))
		} else if len(bad.lines) == maxCSVErrors {
			bad.lines = append(bad.lines, "... (more bad lines not shown)")
		}
	}
	header, err := cr.Read()
	if err == io.EOF {
		return nil, usagef("%s is empty: want a header line player,kind,displayName and one entry a line", name)
	}
	if err != nil {
		return nil, usagef("%s: %v", name, err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		switch h {
		case "player", "kind", "displayName":
			if _, dup := col[h]; dup {
				return nil, usagef("%s line 1: the column %s appears twice", name, h)
			}
			col[h] = i
		default:
			return nil, usagef("%s line 1: unknown column %q: the header names the columns player, kind and displayName (kind and displayName may be left out)", name, h)
		}
	}
	if _, ok := col["player"]; !ok {
		return nil, usagef("%s line 1: no player column: the first line is a header such as player,kind,displayName", name)
	}
	field := func(rec []string, c string) string {
		i, ok := col[c]
		if !ok || i >= len(rec) {
			return ""
		}
		return strings.TrimSpace(rec[i])
	}
	type key struct {
		player string
		kind   pokerv1.EntryKind
	}
	seen := map[key]int{}
	var entries []pokerv1.Entry
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				fail(pe.Line, "%v", pe.Err)
				continue
			}
			return nil, usagef("%s: %v", name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) > len(header) {
			fail(line, "%d fields, but the header names %d", len(rec), len(header))
			continue
		}
		e := pokerv1.Entry{Player: field(rec, "player"), Kind: pokerv1.EntryKind(field(rec, "kind")), DisplayName: field(rec, "displayName")}
		if e.Kind == "" {
			e.Kind = pokerv1.EntryFirst
		}
		switch {
		case e.Player == "":
			fail(line, "no player ID")
			continue
		case len(e.Player) > 64 || !playerID.MatchString(e.Player):
			fail(line, "player %q: an ID is at most 64 letters, digits, '.', '_' or '-', starting and ending with a letter or digit", e.Player)
			continue
		case !contains(entryKinds, e.Kind):
			fail(line, "kind %q: want entry, reEntry, rebuy or addOn (or leave it empty for entry)", e.Kind)
			continue
		case len(e.DisplayName) > 64:
			fail(line, "displayName is %d characters: at most 64", len(e.DisplayName))
			continue
		}
		k := key{e.Player, e.Kind}
		if first, dup := seen[k]; dup {
			fail(line, "player %s has a second %s (the first on line %d): one line for each purchase", e.Player, e.Kind, first)
			continue
		}
		seen[k] = line
		entries = append(entries, e)
	}
	if len(bad.lines) > 0 {
		return nil, usageError{bad.Error()}
	}
	if len(entries) == 0 {
		return nil, usagef("%s has a header but no entries", name)
	}
	return entries, nil
}

func contains[T comparable](s []T, v T) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// entryBatches cuts entries into EntryBatches of at most MaxEntriesPerBatch, in the file's order,
// each named after the tournament and a hash of its content: registering the same file again
// makes the same names, which the API server refuses as AlreadyExists, so nobody is registered
// twice; a file that grew makes new batches only for the part that changed.
func entryBatches(namespace, tournament string, entries []pokerv1.Entry) []*pokerv1.EntryBatch {
	var out []*pokerv1.EntryBatch
	for start := 0; start < len(entries); start += pokerv1.MaxEntriesPerBatch {
		chunk := entries[start:min(start+pokerv1.MaxEntriesPerBatch, len(entries))]
		h := sha256.New()
		fmt.Fprintf(h, "%s\n", tournament)
		for _, e := range chunk {
			fmt.Fprintf(h, "%s\t%s\t%s\n", e.Player, e.Kind, e.DisplayName)
		}
		out = append(out, &pokerv1.EntryBatch{
			ObjectMeta: metav1.ObjectMeta{Name: tournament + "-entries-" + hex.EncodeToString(h.Sum(nil))[:16], Namespace: namespace},
			Spec:       pokerv1.EntryBatchSpec{Tournament: tournament, Entries: append([]pokerv1.Entry(nil), chunk...)},
		})
	}
	return out
}

func newRegisterCommand(o *options) *cobra.Command {
	var f floorFlags
	var file string
	var allowRepeat bool
	cmd := &cobra.Command{
		Use:   "register TOURNAMENT -f entries.csv [--wait]",
		Short: "Register the entries of a CSV file (player,kind,displayName) as EntryBatches",
		Long: "register reads a CSV file whose header names the columns player, kind (entry, reEntry,\n" +
			"rebuy or addOn; entry when left out or empty) and displayName, and creates EntryBatches of\n" +
			fmt.Sprintf("at most %d entries, named after their content: running it again registers nobody twice.", pokerv1.MaxEntriesPerBatch),
		Example: "  kubectl tournament register spring-main -f entries.csv --wait\n" +
			"  cat entries.csv | kubectl tournament register spring-main -f -",
		Args: exactArgs("TOURNAMENT"),
	}
	f.add(cmd, false)
	cmd.Flags().StringVarP(&file, "filename", "f", "", "the CSV file of entries, - for standard input (required)")
	cmd.Flags().BoolVar(&allowRepeat, "allow-repeat", false,
		"register entries whose player and kind an earlier batch has (a second rebuy, re-entry or add-on)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := o.checkOutput(); err != nil {
			return err
		}
		if file == "" {
			return usagef("-f entries.csv is required: a CSV file with the header player,kind,displayName")
		}
		var r io.Reader = o.streams.In
		if file != "-" {
			fh, err := os.Open(file)
			if err != nil {
				return usagef("reading the entries: %v", err)
			}
			defer fh.Close()
			r = fh
		}
		entries, err := parseEntries(file, r)
		if err != nil {
			return err
		}
		ctx := cmd.Context()
		c, t, err := o.tournament(ctx, args[0], requireNotOver)
		if err != nil {
			return err
		}
		batches := entryBatches(c.namespace, t.Name, entries)
		if !allowRepeat {
			if err := refuseRepeats(ctx, c, t.Name, batches); err != nil {
				return err
			}
		}
		list := &pokerv1.EntryBatchList{}
		for _, b := range batches {
			got, created, err := createBatch(ctx, c, b)
			if err != nil {
				return err
			}
			if o.tableOutput() {
				state := "created"
				if !created {
					state = "already registered, unchanged"
				}
				fmt.Fprintf(o.streams.Out, "entrybatch.%s/%s %s (%s)\n", pokerv1.GroupVersion.Group, got.Name, state, entriesCount(len(got.Spec.Entries)))
			}
			list.Items = append(list.Items, *got)
		}
		if f.wait {
			for i := range list.Items {
				b := &list.Items[i]
				ref := fmt.Sprintf("entrybatch.%s/%s", pokerv1.GroupVersion.Group, b.Name)
				err := waitFor(ctx, f.timeout, func() (bool, error) {
					if err := c.get(ctx, resEntryBatches, b.Name, b); err != nil {
						return false, c.explain(ctx, err, "get", resEntryBatches)
					}
					return b.Status.Phase != "" && b.Status.Phase != pokerv1.EntryBatchPending, nil
				})
				if err != nil {
					return noAnswer(err, ref, c.namespace, f.timeout)
				}
			}
		}
		if !o.tableOutput() {
			if err := o.printObject(list, o.streams.Out); err != nil {
				return err
			}
		}
		if !f.wait {
			return nil
		}
		return reportBatches(o, list.Items)
	}
	return cmd
}

// entriesCount says "1 entry", "2 entries".
func entriesCount(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return strconv.Itoa(n) + " entries"
}

// refuseRepeats refuses new batches that repeat a player and kind of a batch already there: the
// same file run again makes the same batches (AlreadyExists, nothing registered twice), but a
// file changed in one line makes a new batch of that line's chunk, whose other entries would be
// registered a second time.
func refuseRepeats(ctx context.Context, c *client, tournament string, batches []*pokerv1.EntryBatch) error {
	var list pokerv1.EntryBatchList
	if err := c.list(ctx, resEntryBatches, false, &list); err != nil {
		return c.explain(ctx, err, "list", resEntryBatches)
	}
	type key struct {
		player string
		kind   pokerv1.EntryKind
	}
	in, exists := map[key]string{}, map[string]bool{}
	for _, b := range list.Items {
		if b.Spec.Tournament != tournament {
			continue
		}
		exists[b.Name] = true
		for _, e := range b.Spec.Entries {
			in[key{e.Player, e.Kind}] = b.Name
		}
	}
	var repeats []string
	for _, b := range batches {
		if exists[b.Name] {
			continue
		}
		for _, e := range b.Spec.Entries {
			if name, ok := in[key{e.Player, e.Kind}]; ok {
				repeats = append(repeats, fmt.Sprintf("%s (%s) in %s", e.Player, e.Kind, name))
			}
		}
	}
	if len(repeats) == 0 {
		return nil
	}
	shown := repeats[:min(len(repeats), 5)]
	more := ""
	if len(repeats) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(repeats)-len(shown))
	}
	counted := fmt.Sprintf("%d entries of this file are", len(repeats))
	if len(repeats) == 1 {
		counted = "1 entry of this file is"
	}
	return fmt.Errorf("%s already in EntryBatches of %s: %s%s; nothing registered. "+
		"Register a file of the new entries only, or --allow-repeat for a second rebuy, re-entry or add-on",
		counted, tournament, strings.Join(shown, ", "), more)
}

// createBatch creates b; if a batch of that name exists with the same spec, it was registered by
// an earlier run and is returned as it is.
func createBatch(ctx context.Context, c *client, b *pokerv1.EntryBatch) (*pokerv1.EntryBatch, bool, error) {
	var got pokerv1.EntryBatch
	err := c.create(ctx, resEntryBatches, b, &got)
	if err == nil {
		return &got, true, nil
	}
	if !apierrors.IsAlreadyExists(err) {
		return nil, false, c.explainWrite(ctx, err, resEntryBatches)
	}
	if err := c.get(ctx, resEntryBatches, b.Name, &got); err != nil {
		return nil, false, c.explain(ctx, err, "get", resEntryBatches)
	}
	if !reflect.DeepEqual(got.Spec, b.Spec) {
		return nil, false, fmt.Errorf("entrybatch %s exists with other entries than this file's: delete it or register these entries in another file", b.Name)
	}
	return &got, false, nil
}

// reportBatches prints the tournament's answer to each batch; any refused entry makes it fail.
func reportBatches(o *options, batches []pokerv1.EntryBatch) error {
	var accepted, refused int32
	for _, b := range batches {
		accepted += b.Status.Accepted
		refused += b.Status.RefusedCount
		for _, r := range b.Status.Refused {
			fmt.Fprintf(o.streams.ErrOut, "refused: %s (%s): %s\n", r.Player, r.Kind, r.Reason)
		}
	}
	if o.tableOutput() {
		fmt.Fprintf(o.streams.Out, "%s registered, %d refused\n", entriesCount(int(accepted)), refused)
	}
	if refused > 0 {
		return fmt.Errorf("%d of %d entries were refused (listed above)", refused, accepted+refused)
	}
	return nil
}

// Command historyload tells where a Temporal server's work on histories went, from the SQLite
// store of `pokerfloor run` (DATA_DIR/temporal.db, read only): each row of history_node is one
// transaction on a run's history, and its events say what it was. It prints, by workflow type,
// the transactions, the events by type (signals by name, activities by type), and the kinds of
// orders the tables were signalled (director.Order's fields):
//
//	go run ./hack/historyload DATA_DIR/temporal.db
//
// A run that has finished moves its store under DATA_DIR/runs/.
package main

import (
	"cmp"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	historypb "go.temporal.io/api/history/v1"
	_ "modernc.org/sqlite"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: historyload DATA_DIR/temporal.db")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "historyload:", err)
		os.Exit(1)
	}
}

// tree is what one history tree (a run) held: its workflow type, once its first event is read.
type tree struct {
	kind   string
	txns   int
	events map[string]int
}

func run(path string) error {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.Query("SELECT tree_id, data FROM history_node ORDER BY tree_id, node_id")
	if err != nil {
		return fmt.Errorf("%s: %w (expected the SQLite store of a Temporal server)", path, err)
	}
	defer rows.Close()
	trees := map[string]*tree{}
	orders := map[string]int{} // the kinds in one signal of orders: how many signals
	for rows.Next() {
		var id, data []byte
		if err := rows.Scan(&id, &data); err != nil {
			return err
		}
		var h historypb.History
		if err := h.Unmarshal(data); err != nil {
			return fmt.Errorf("a history node of tree %x: %w", id, err)
		}
		tr := trees[string(id)]
		if tr == nil {
			tr = &tree{events: map[string]int{}}
			trees[string(id)] = tr
		}
		tr.txns++
		for _, e := range h.GetEvents() {
			tr.events[eventName(e, orders)]++
			if a := e.GetWorkflowExecutionStartedEventAttributes(); a != nil {
				tr.kind = a.GetWorkflowType().GetName()
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	txns := map[string]int{}
	events := map[string]map[string]int{}
	for _, tr := range trees {
		kind := cmp.Or(tr.kind, "(started before the store)")
		txns[kind] += tr.txns
		if events[kind] == nil {
			events[kind] = map[string]int{}
		}
		for e, n := range tr.events {
			events[kind][e] += n
		}
	}
	for _, kind := range slices.Sorted(maps.Keys(txns)) {
		fmt.Printf("%s: %d transactions\n", kind, txns[kind])
		printCounts(events[kind])
	}
	fmt.Println("signals of orders to tables, by the kinds of orders they carried:")
	printCounts(orders)
	return nil
}

// eventName names an event by its type, a signal's by its name too, an activity's by its type;
// a signal of orders has its kinds counted in orders.
func eventName(e *historypb.HistoryEvent, orders map[string]int) string {
	name := strings.TrimPrefix(e.GetEventType().String(), "EVENT_TYPE_")
	if a := e.GetWorkflowExecutionSignaledEventAttributes(); a != nil {
		name += " " + a.GetSignalName()
		if a.GetSignalName() == "orders" && len(a.GetInput().GetPayloads()) > 0 {
			orders[orderKinds(a.GetInput().GetPayloads()[0].GetData())]++
		}
	}
	if a := e.GetActivityTaskScheduledEventAttributes(); a != nil {
		name += " " + a.GetActivityType().GetName()
	}
	if a := e.GetSignalExternalWorkflowExecutionInitiatedEventAttributes(); a != nil {
		name += " " + a.GetSignalName()
	}
	if a := e.GetMarkerRecordedEventAttributes(); a != nil {
		name += " " + a.GetMarkerName()
	}
	return name
}

// orderKinds names the fields set in a signal's orders (JSON of []director.Order), sorted.
func orderKinds(data []byte) string {
	var os []map[string]json.RawMessage
	if err := json.Unmarshal(data, &os); err != nil {
		return "(not orders: " + err.Error() + ")"
	}
	var kinds []string
	for _, o := range os {
		for k := range o {
			if k != "seq" {
				kinds = append(kinds, k)
			}
		}
	}
	slices.Sort(kinds)
	return strings.Join(kinds, " ")
}

// printCounts prints counts, the largest first.
func printCounts(counts map[string]int) {
	keys := slices.SortedFunc(maps.Keys(counts), func(a, b string) int {
		return cmp.Or(counts[b]-counts[a], strings.Compare(a, b))
	})
	for _, k := range keys {
		fmt.Printf("  %8d  %s\n", counts[k], k)
	}
}

// Package localtemporal runs a real Temporal server inside the pokerfloor process, for `pokerfloor run`:
// the frontend, history, matching and worker services on loopback ports, one history shard, and a
// SQLite file in a data folder, so a tournament's history outlives the process.
//
// It is the same server that go.temporal.io/server/temporaltest starts for tests, configured the same
// way (temporaltest/internal/lite_server.go), except that the database is a file (mode rwc) rather
// than memory. It has one shard and no authentication: it serves one machine's local run (every
// service on 127.0.0.1) or, with Options.FrontendAddress, a small event's cluster through
// `pokerfloor temporal` (the frontend on that address, the other services still on loopback).
package localtemporal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/metrics"
	persistencesql "go.temporal.io/server/common/persistence/sql"
	"go.temporal.io/server/common/persistence/sql/sqlplugin"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	"go.temporal.io/server/common/primitives"
	"go.temporal.io/server/common/resolver"
	sqliteschema "go.temporal.io/server/schema/sqlite"
	"go.temporal.io/server/temporal"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// DefaultNamespace is the namespace registered at start when Options.Namespace is empty.
const DefaultNamespace = "default"

// DatabaseFile is the SQLite file's name inside the data folder.
const DatabaseFile = "temporal.db"

const (
	loopback    = "127.0.0.1"
	clusterName = "active"
)

// Options configure a Server.
type Options struct {
	// DataDir holds the SQLite database (DatabaseFile). It is created if missing; a database already
	// there is reused, with every workflow it holds.
	DataDir string
	// Namespace is registered at start (if it is not already); DefaultNamespace if empty.
	Namespace string
	// Log receives the server's log lines (JSON, level info and above). Nil discards them: a local
	// run shows progress, not the server's chatter.
	Log io.Writer
	// Reset deletes the database before the server starts (with the folder locked), so that the
	// server starts empty: the local run starts each new tournament so, and the folder does not
	// grow with every run.
	Reset bool
	// FrontendAddress, host:port, is where the frontend listens (0.0.0.0:7233 for every interface).
	// Empty: a free port on 127.0.0.1. The history, matching and worker services always bind to
	// loopback.
	FrontendAddress string
	// DynamicConfig overrides server settings by key (dynamicconfig.<Setting>.Key()), for example
	// to raise rate limits for a simulation at full speed.
	DynamicConfig map[dynamicconfig.Key]any
}

// Server is a running embedded Temporal server.
type Server struct {
	srv       temporal.Server
	hostPort  string
	namespace string
	dbPath    string
	unlock    func()
	logLevel  zap.AtomicLevel
}

// Start sets up the database if it is new, registers the namespace and starts the server. It returns
// once the frontend accepts connections. The caller must Stop it.
func Start(opts Options) (*Server, error) {
	if opts.DataDir == "" {
		return nil, errors.New("localtemporal: no data folder")
	}
	if opts.Namespace == "" {
		opts.Namespace = DefaultNamespace
	}
	if err := os.MkdirAll(opts.DataDir, 0o755); err != nil {
		return nil, fmt.Errorf("data folder: %w", err)
	}
	unlock, err := lockDataDir(opts.DataDir)
	if err != nil {
		return nil, err
	}
	if opts.Reset {
		if err := removeDatabase(opts.DataDir); err != nil {
			unlock()
			return nil, err
		}
	}
	opened(filepath.Join(opts.DataDir, DatabaseFile))
	s, err := start(opts, unlock)
	if err != nil {
		unlock()
		return nil, err
	}
	return s, nil
}

// The server's SQLite plugin keeps each database's connection open for the life of the process,
// even after the server stops, so a database this process has opened cannot be deleted and
// started afresh: the old connection would still see the old tables. openedDBs remembers them.
var (
	openedMu  sync.Mutex
	openedDBs = map[string]bool{}
)

func opened(path string) {
	openedMu.Lock()
	defer openedMu.Unlock()
	openedDBs[path] = true
}

// removeDatabase deletes the SQLite database and its write-ahead log and shared-memory files.
func removeDatabase(dir string) error {
	path := filepath.Join(dir, DatabaseFile)
	openedMu.Lock()
	inUse := openedDBs[path]
	openedMu.Unlock()
	if inUse {
		return fmt.Errorf("reset the database %s: this process has opened it, and the SQLite plugin keeps it open until the process ends", path)
	}
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		err := os.Remove(filepath.Join(dir, DatabaseFile+suffix))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("reset the database: %w", err)
		}
	}
	return nil
}

func start(opts Options, unlock func()) (*Server, error) {
	dbPath := filepath.Join(opts.DataDir, DatabaseFile)

	sqlConfig := &config.SQL{
		PluginName:   sqliteplugin.PluginName,
		DatabaseName: dbPath,
		ConnectAttributes: map[string]string{
			"mode": "rwc", // read, write, create: a file, not memory
			// WAL lets readers run beside the one writer; synchronous=NORMAL syncs at checkpoints
			// only, which survives a crash of the process (not of the machine) and keeps a
			// simulation at full speed from waiting on the disk after every write.
			"journal_mode": "wal",
			"synchronous":  "NORMAL",
		},
	}
	if _, err := os.Stat(dbPath); errors.Is(err, os.ErrNotExist) {
		if err := sqliteschema.SetupSchema(sqlConfig); err != nil {
			return nil, fmt.Errorf("set up the database %s: %w", dbPath, err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	ns, err := sqliteschema.NewNamespaceConfig(clusterName, opts.Namespace, false, nil)
	if err != nil {
		return nil, fmt.Errorf("namespace %s: %w", opts.Namespace, err)
	}
	// A no-op for a namespace the database already holds.
	if err := sqliteschema.CreateNamespaces(sqlConfig, ns); err != nil {
		return nil, fmt.Errorf("register namespace %s: %w", opts.Namespace, err)
	}
	if err := forgetEarlierMembers(sqlConfig); err != nil {
		return nil, err
	}

	// Four services, each with a gRPC and a membership port. They are reserved together so that no
	// two get the same one, then released for the server to bind.
	ports, err := freePorts(8)
	if err != nil {
		return nil, err
	}
	frontendIP := loopback
	if opts.FrontendAddress != "" {
		host, port, err := SplitFrontendAddress(opts.FrontendAddress)
		if err != nil {
			return nil, err
		}
		ports[0] = port
		if frontendIP = host; host == "" {
			frontendIP = "0.0.0.0"
		}
	}
	// The address the server's own system workers, and Dial, use.
	dialIP := frontendIP
	if ip := net.ParseIP(frontendIP); ip == nil || ip.IsUnspecified() {
		dialIP = loopback
	}
	hostPort := net.JoinHostPort(dialIP, fmt.Sprint(ports[0]))
	cfg := serverConfig(sqlConfig, hostPort, ports)
	frontend := cfg.Services[string(primitives.FrontendService)]
	frontend.RPC.BindOnIP = frontendIP
	cfg.Services[string(primitives.FrontendService)] = frontend

	logger := log.Logger(log.NewNoopLogger())
	level := zap.NewAtomicLevelAt(zapcore.InfoLevel)
	if opts.Log != nil {
		logger = log.NewZapLogger(zap.New(expectedCore{zapcore.NewCore(
			zapcore.NewJSONEncoder(log.DefaultZapEncoderConfig),
			zapcore.AddSync(opts.Log),
			level,
		)}))
	}
	dc := dynamicconfig.StaticClient{} // not temporaltest's forced search attribute refresh: a locked database read in every workflow task's dispatch
	// One page holds any of the workflows' histories (workflows.HistoryPageSize, temporalio/temporal#7741).
	dc[dynamicconfig.HistoryMaxPageSize.Key()] = []dynamicconfig.ConstrainedValue{{Value: workflows.HistoryPageSize}}
	// The history's task queues keep the universal predicate (docs/design.md, "The history
	// queue's split"): with it, a new range of tasks merges into the reader's last slice by range;
	// narrowed to the namespaces pending (the default, for at most 10), every new range splits that
	// slice task by task, which took a quarter of the process's CPU at 10,000 entries.
	dc[dynamicconfig.QueueShrinkPredicateMaxPendingKeys.Key()] = []dynamicconfig.ConstrainedValue{{Value: 0}}
	for k, v := range opts.DynamicConfig {
		dc[k] = []dynamicconfig.ConstrainedValue{{Value: v}}
	}
	srv, err := temporal.NewServer(
		temporal.WithConfig(cfg),
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithLogger(logger),
		temporal.WithDynamicConfigClient(dc),
	)
	if err != nil {
		return nil, fmt.Errorf("temporal server: %w", err)
	}
	if err := srv.Start(); err != nil {
		return nil, fmt.Errorf("start the temporal server: %w", err)
	}
	s := &Server{srv: srv, hostPort: hostPort, namespace: opts.Namespace, dbPath: dbPath, unlock: unlock, logLevel: level}
	// The frontend answers "not healthy yet" (and logs it at error level) until its services have
	// joined: those lines are start-up noise, not news, so the server is quiet until it answers.
	level.SetLevel(zapcore.FatalLevel)
	err = waitForFrontend(hostPort, 2*time.Minute)
	level.SetLevel(zapcore.InfoLevel)
	if err != nil {
		_ = srv.Stop()
		return nil, err
	}
	return s, nil
}

// forgetEarlierMembers deletes the cluster membership rows earlier servers on this database left.
// Each service joins the cluster through the hosts that heartbeated in the last 20 seconds; after a
// quick restart those are the previous process's, gone, and the services wait on them: without this,
// the first workflow after a restart in TestRestartKeepsHistory waited 50 seconds for matching. The
// folder lock guarantees no other server is using the database, so every row there is stale.
func forgetEarlierMembers(sqlConfig *config.SQL) error {
	db, err := persistencesql.NewSQLDB(sqlplugin.DbKindMain, sqlConfig, resolver.NewNoopResolver(),
		log.NewNoopLogger(), metrics.NoopMetricsHandler)
	if err != nil {
		return fmt.Errorf("open the database: %w", err)
	}
	defer func() { _ = db.Close() }()
	// Rows expire 48 hours after their last heartbeat: a cut-off a week ahead takes every one.
	_, err = db.PruneClusterMembership(context.Background(), &sqlplugin.PruneClusterMembershipFilter{
		PruneRecordsBefore: time.Now().Add(7 * 24 * time.Hour),
	})
	if err != nil {
		return fmt.Errorf("clear the previous run's cluster members: %w", err)
	}
	return nil
}

// serverConfig is lite_server.go's configuration with a file database: one history shard, every
// service on loopback, no archival, no metrics or pprof listeners.
func serverConfig(sqlConfig *config.SQL, hostPort string, ports []int) *config.Config {
	service := func(i int) config.Service {
		return config.Service{RPC: config.RPC{
			GRPCPort:       ports[2*i],
			MembershipPort: ports[2*i+1],
			BindOnIP:       loopback,
		}}
	}
	return &config.Config{
		Global: config.Global{
			Membership: config.Membership{
				MaxJoinDuration:  30 * time.Second,
				BroadcastAddress: loopback,
			},
		},
		Persistence: config.Persistence{
			DefaultStore:     sqliteplugin.PluginName,
			VisibilityStore:  sqliteplugin.PluginName,
			NumHistoryShards: 1,
			DataStores: map[string]config.DataStore{
				sqliteplugin.PluginName: {SQL: sqlConfig},
			},
		},
		ClusterMetadata: &cluster.Config{
			EnableGlobalNamespace:    false,
			FailoverVersionIncrement: 10,
			MasterClusterName:        clusterName,
			CurrentClusterName:       clusterName,
			ClusterInformation: map[string]cluster.ClusterInformation{
				clusterName: {Enabled: true, InitialFailoverVersion: 1, RPCAddress: hostPort},
			},
		},
		DCRedirectionPolicy: config.DCRedirectionPolicy{Policy: "noop"},
		Services: map[string]config.Service{
			string(primitives.FrontendService): service(0),
			string(primitives.HistoryService):  service(1),
			string(primitives.MatchingService): service(2),
			string(primitives.WorkerService):   service(3),
		},
		Archival: config.Archival{
			History:    config.HistoryArchival{State: "disabled"},
			Visibility: config.VisibilityArchival{State: "disabled"},
		},
		NamespaceDefaults: config.NamespaceDefaults{
			Archival: config.ArchivalNamespaceDefaults{
				History:    config.HistoryArchivalNamespaceDefaults{State: "disabled"},
				Visibility: config.VisibilityArchivalNamespaceDefaults{State: "disabled"},
			},
		},
		// The server's own system workers dial the frontend through this.
		PublicClient: config.PublicClient{HostPort: hostPort},
	}
}

// HostPort is the frontend's address, for client.Options.HostPort.
func (s *Server) HostPort() string { return s.hostPort }

// Namespace is the namespace registered at start.
func (s *Server) Namespace() string { return s.namespace }

// DatabasePath is the SQLite file the server persists to.
func (s *Server) DatabasePath() string { return s.dbPath }

// Dial connects an SDK client to the server, in its namespace unless opts names another.
// HostPort is always the server's.
func (s *Server) Dial(opts client.Options) (client.Client, error) {
	opts.HostPort = s.hostPort
	if opts.Namespace == "" {
		opts.Namespace = s.namespace
	}
	if opts.ConnectionOptions.GrpcCompression == nil {
		// The SDK gzips every request by default, and the server then every answer: on loopback
		// that only burns CPU the server needs (about 4% of a 100,000-entry run's profile went
		// to deflate).
		opts.ConnectionOptions.GrpcCompression = &client.GrpcCompressionNone{}
	}
	return client.Dial(opts)
}

// Stop shuts the server down and closes the database. Stop clients and workers first.
//
// The services stop one after the other, and those still running log errors and warnings about
// the ones gone (matching's "Not enough hosts to serve the request", the system workers' failed
// polls): nothing is wrong, so the log is closed to everything below fatal before they stop.
func (s *Server) Stop() error {
	s.logLevel.SetLevel(zapcore.FatalLevel)
	err := s.srv.Stop()
	s.unlock()
	return err
}

// Discard stops the server like Stop and deletes its database before it releases the folder: for
// a database whose workflows nobody needs any more (the local run's, once its results are kept
// elsewhere). The process must not start a server on the folder again (see removeDatabase).
func (s *Server) Discard() error {
	s.logLevel.SetLevel(zapcore.FatalLevel)
	err := s.srv.Stop()
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if rerr := os.Remove(s.dbPath + suffix); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
			err = fmt.Errorf("delete the database: %w", rerr)
		}
	}
	s.unlock()
	return err
}

// SplitFrontendAddress checks Options.FrontendAddress: an IP address (or none) and a port.
func SplitFrontendAddress(addr string) (host string, port int, err error) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("frontend address %q: %v; expected IP:PORT, like 0.0.0.0:7233", addr, err)
	}
	if h != "" && net.ParseIP(h) == nil {
		return "", 0, fmt.Errorf("frontend address %q: %q is not an IP address; expected IP:PORT, like 0.0.0.0:7233", addr, h)
	}
	n, err := net.LookupPort("tcp", p)
	if err != nil || n < 1 || n > 65535 {
		return "", 0, fmt.Errorf("frontend address %q: port %q; expected 1 to 65535", addr, p)
	}
	return h, n, nil
}

// freePorts returns n distinct loopback ports that were free a moment ago.
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			_ = l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", net.JoinHostPort(loopback, "0"))
		if err != nil {
			return nil, fmt.Errorf("find a free port: %w", err)
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// waitForFrontend waits until the frontend accepts TCP connections. srv.Start returns once the
// services are started, which in practice includes listening; this guards against the gap.
func waitForFrontend(hostPort string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	conn, err := grpc.NewClient(hostPort, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return fmt.Errorf("temporal frontend at %s: %w", hostPort, err)
	}
	defer func() { _ = conn.Close() }()
	svc := workflowservice.NewWorkflowServiceClient(conn)
	for {
		callCtx, callCancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := svc.GetSystemInfo(callCtx, &workflowservice.GetSystemInfoRequest{})
		callCancel()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("temporal frontend at %s did not answer within %s: %w", hostPort, timeout, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// InUseError says the data folder is locked by another server: two servers on one SQLite file would
// fight over its one history shard.
type InUseError struct {
	Dir string
}

func (e *InUseError) Error() string {
	return fmt.Sprintf("data folder %s is in use by another pokerfloor run", e.Dir)
}

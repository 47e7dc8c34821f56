// Package migrate brings a store's schema up to date: one runner for the
// SQLite and the PostgreSQL store, so that a schema version is counted, checked
// and recorded the same way on both.
//
// Each store keeps its own SQL files, NNNN_name.sql, one per version; a
// version means the same schema on both databases. The runner applies the
// versions a database lacks, in order, inside one transaction that the store
// opens (and locks, so that two processes opening one database at once do not
// both apply a migration), and records each in the table schema_migrations.
package migrate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
)

// Migration is one schema version's SQL file.
type Migration struct {
	Version int
	Name    string // the file's name, as recorded in schema_migrations
	SQL     string
}

// Tx is the database's side of a run, inside the one transaction that the
// store began and commits once Run returns nil.
type Tx interface {
	// Prepare creates schema_migrations if it is missing, after taking
	// whatever lock makes another opener wait for this transaction's end.
	Prepare(ctx context.Context) error
	// Version is the highest version recorded, 0 for none.
	Version(ctx context.Context) (int, error)
	// Apply runs m's SQL and whatever the store does with it.
	Apply(ctx context.Context, m Migration) error
	// Record notes m in schema_migrations.
	Record(ctx context.Context, m Migration) error
}

var fileName = regexp.MustCompile(`^(\d+)_[a-z0-9_]+\.sql$`)

// Load reads the NNNN_name.sql files at the top of fsys (other files are
// ignored); their versions must run 1, 2, 3... with no gap or repeat, so that
// a version number always means the same schema.
func Load(fsys fs.FS) ([]Migration, error) {
	des, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("reading the schema migrations: %w", err)
	}
	var ms []Migration
	for _, de := range des {
		m := fileName.FindStringSubmatch(de.Name())
		if de.IsDir() || m == nil {
			continue
		}
		v, err := strconv.Atoi(m[1])
		if err != nil {
			return nil, fmt.Errorf("schema migration %s: bad version: %w", de.Name(), err)
		}
		b, err := fs.ReadFile(fsys, de.Name())
		if err != nil {
			return nil, fmt.Errorf("reading schema migration %s: %w", de.Name(), err)
		}
		ms = append(ms, Migration{Version: v, Name: de.Name(), SQL: string(b)})
	}
	// ReadDir sorts by name and the numbers are zero-padded, but check rather than trust.
	for i, m := range ms {
		if m.Version != i+1 {
			return nil, fmt.Errorf("schema migration %s has version %d, expected %d: versions must run from 1 with no gaps or repeats", m.Name, m.Version, i+1)
		}
	}
	if len(ms) == 0 {
		return nil, errors.New("no schema migrations found")
	}
	return ms, nil
}

// Sub is the folder dir of an embedded file system, for a store's
// migrations; dir is a constant, so a bad one is a programming error.
func Sub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(fmt.Sprintf("migrations in %q: %v", dir, err))
	}
	return sub
}

// Run applies the migrations of ms that the database lacks, in tx: an
// upgrade that fails part way leaves the database as it was once the store
// rolls tx back. A database with a version newer than the last of ms is
// refused: this build does not know its schema. ms must be as Load gives
// it: versions 1, 2, 3... in order, so that ms[v] follows version v.
func Run(ctx context.Context, tx Tx, ms []Migration) error {
	if len(ms) == 0 {
		return errors.New("no schema migrations given")
	}
	latest := ms[len(ms)-1].Version
	if err := tx.Prepare(ctx); err != nil {
		return fmt.Errorf("creating the schema_migrations table: %w", err)
	}
	current, err := tx.Version(ctx)
	if err != nil {
		return fmt.Errorf("reading the schema version: %w", err)
	}
	if current > latest {
		return fmt.Errorf("the database has schema version %d but this pitwall knows only up to version %d; use a newer pitwall", current, latest)
	}
	for _, m := range ms[current:] {
		if err := tx.Apply(ctx, m); err != nil {
			return fmt.Errorf("applying schema migration %s: %w", m.Name, err)
		}
		if err := tx.Record(ctx, m); err != nil {
			return fmt.Errorf("recording schema migration %s: %w", m.Name, err)
		}
	}
	return nil
}

package main

import (
	"errors"
	"io/fs"
	"os"

	"github.com/upkdeps/upkdeps/index"
)

// openDBForAdd opens the index database for index add and returns the
// function to call when the add failed: when the run created the
// database (it did not exist) and added nothing to it, it removes the
// empty file again, so that a later plan or check --index says there is
// no index instead of reading an empty one without a word.
func (a *app) openDBForAdd() (*index.DB, func(added bool), error) {
	path := a.cfg.DB
	if path == "" {
		def, err := defaultDB()
		if err != nil {
			return nil, nil, err
		}
		path = def
	}
	_, err := os.Lstat(path)
	existed := !errors.Is(err, fs.ErrNotExist)
	db, err := a.openDB(false)
	if err != nil {
		return nil, nil, err
	}
	failed := func(added bool) {
		if existed || added {
			return
		}
		db.Close()
		for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
			_ = os.Remove(path + suffix)
		}
	}
	return db, failed, nil
}

-- The upkdeps package index (schema version 1). Plain SQL: another
-- database server can run it. The database is a cache of its sources: every
-- row can be rebuilt by adding the sources again.

-- A source is one thing added with `index add`: a folder, an archive, a
-- download cache, or (kind 'metadata') a catalogue that describes packages
-- without holding their bytes.
CREATE TABLE sources (
	id         INTEGER PRIMARY KEY,
	kind       TEXT    NOT NULL,          -- 'dir', 'archive', 'cache', 'file', 'metadata'
	location   TEXT    NOT NULL UNIQUE,   -- absolute path (or URL for metadata)
	added_at   TEXT    NOT NULL,          -- RFC 3339, UTC
	updated_at TEXT    NOT NULL,
	files      INTEGER NOT NULL DEFAULT 0, -- files and members looked at
	packages   INTEGER NOT NULL DEFAULT 0,
	errors     INTEGER NOT NULL DEFAULT 0,
	error      TEXT    NOT NULL DEFAULT '' -- the source's own error, '' when none
);

-- A file is one file or archive member a source holds, package or not: it
-- lets a re-add skip what did not change (size and mtime, or member CRC).
CREATE TABLE files (
	id        INTEGER PRIMARY KEY,
	source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
	path      TEXT    NOT NULL,              -- absolute path of the file (of the archive for a member)
	member    TEXT    NOT NULL DEFAULT '',   -- member inside the archive ("outer!inner" when nested)
	size      INTEGER NOT NULL,
	mtime     INTEGER NOT NULL,              -- Unix seconds
	crc32     INTEGER NOT NULL DEFAULT 0,    -- a member's CRC-32 as its archive stores it
	error     TEXT    NOT NULL DEFAULT '',   -- why it could not be read
	UNIQUE (source_id, path, member)
);

-- A package is one copy of an Unreal package. file_id is NULL for a
-- package a metadata source only describes (no bytes here to copy).
CREATE TABLE packages (
	id          INTEGER PRIMARY KEY,
	source_id   INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
	file_id     INTEGER REFERENCES files(id) ON DELETE CASCADE,
	name        TEXT    NOT NULL,            -- the engine's name: file name without extension
	name_lower  TEXT    NOT NULL,
	file_name   TEXT    NOT NULL,            -- file name as installed, e.g. "CTFM-Foo.unr"
	ext         TEXT    NOT NULL,            -- ".u", ".utx", ... (lower case)
	guid        TEXT    NOT NULL DEFAULT '', -- 32 hex digits, '' when unknown
	generations INTEGER NOT NULL DEFAULT 0,
	version     INTEGER NOT NULL DEFAULT 0,
	licensee    INTEGER NOT NULL DEFAULT 0,
	flags       INTEGER NOT NULL DEFAULT 0,
	size        INTEGER NOT NULL,
	sha256      TEXT    NOT NULL DEFAULT '',
	mtime       INTEGER NOT NULL DEFAULT 0,
	compressed  TEXT    NOT NULL DEFAULT ''  -- 'uz' or 'uz2' when stored compressed
);
CREATE INDEX packages_name ON packages (name_lower);
CREATE INDEX packages_guid ON packages (guid);
CREATE INDEX packages_file ON packages (file_id);

-- What a package exports: every object's group path below the package and
-- its class, so that `find Pkg.Object` and check --index can say which
-- copies have an object.
CREATE TABLE exports (
	package_id INTEGER NOT NULL REFERENCES packages(id) ON DELETE CASCADE,
	path_lower TEXT    NOT NULL,             -- "group.name", lower case
	class      TEXT    NOT NULL              -- class name ("Class" for a class)
);
CREATE INDEX exports_package ON exports (package_id);
CREATE INDEX exports_path ON exports (path_lower);

-- The packages a package imports (by name as spelled): what fix needs to
-- close over what it brings.
CREATE TABLE imports (
	package_id INTEGER NOT NULL REFERENCES packages(id) ON DELETE CASCADE,
	name       TEXT    NOT NULL
);
CREATE INDEX imports_package ON imports (package_id);

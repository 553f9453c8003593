package gvrender

import "errors"

// ErrNotBuilt is Render's error in a build without the graphvizwasm tag.
var ErrNotBuilt = errors.New("gvrender: built without the graphvizwasm tag")

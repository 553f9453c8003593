// Package native finds the native classes of Unreal Engine 1 and 2
// packages: the classes a package's C++ module registers.
package native

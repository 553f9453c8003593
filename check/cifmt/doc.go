// Package cifmt renders findings in the formats continuous-integration
// systems read: SARIF 2.1.0 (code scanning), GitHub Actions workflow
// commands (annotations on a pull request) and checkstyle XML.
//
// A command turns its report into a [Log] (the tool, one [Rule] per kind of
// finding, and one [Result] per finding, located at a file and line) and
// [Write] prints it in the [Format] asked for. File names are printed
// relative to Log.Root, with "/", so that a CI finds them in the
// repository; files outside Root keep their absolute path.
package cifmt

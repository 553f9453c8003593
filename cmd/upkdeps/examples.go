package main

import (
	"strings"

	"github.com/spf13/cobra"
)

// examples are the Example of each command's --help, by command path
// without "upkdeps" ("" is the root). Each names the demo install
// (testdata/demo) or a typical server; TestEveryCommandHasExample keeps
// the list complete.
var examples = map[string]string{
	"": `  upkdeps check --ini /srv/ut99/System/UnrealTournament.ini
  upkdeps why --ini testdata/demo/System/Demo.ini DM-Demo CityTex`,
	"cache": `  upkdeps cache list --ini /srv/ut99/System/UnrealTournament.ini`,
	"cache add": `  upkdeps cache add --ini /srv/ut99/System/UnrealTournament.ini --dry-run ~/Downloads/CTF-Face.unr
  upkdeps cache add --cache ~/.utpg/Cache ~/Downloads/*.utx`,
	"cache clean": `  upkdeps cache clean --ini /srv/ut99/System/UnrealTournament.ini --dry-run --orphans --tmp`,
	"cache extract": `  upkdeps cache extract --ini /srv/ut99/System/UnrealTournament.ini --dry-run
  upkdeps cache extract --ini /srv/ut99/System/UnrealTournament.ini --to /tmp/extracted CityTex`,
	"cache list":   `  upkdeps cache list --ini /srv/ut99/System/UnrealTournament.ini --json`,
	"cache verify": `  upkdeps cache verify --cache ~/.utpg/Cache`,
	"check": `  upkdeps check --ini testdata/demo/System/Demo.ini
  upkdeps check --ini /srv/ut99 --with ~/Downloads/NewMod.zip
  upkdeps check --ini System/UnrealTournament.ini --format sarif --baseline upkdeps-baseline.json > check.sarif`,
	"compare": `  upkdeps compare --server /srv/ut99/System/UnrealTournament.ini --client ~/UnrealTournament
  upkdeps compare --server /srv/ut99/System/UnrealTournament.ini --client ~/UnrealTournament --redirect /var/www/redirect --json`,
	"explain":               `  upkdeps explain --ini /srv/ut99/System/UnrealTournament.ini /srv/ut99/System/ucc.log`,
	"livemap":               `  upkdeps livemap --ini /srv/ut99/System/UnrealTournament.ini --json`,
	"unused":                `  upkdeps unused --ini /srv/ut99/System/UnrealTournament.ini`,
	"completion":            `  upkdeps completion bash > /etc/bash_completion.d/upkdeps`,
	"completion bash":       `  source <(upkdeps completion bash)`,
	"completion fish":       `  upkdeps completion fish > ~/.config/fish/completions/upkdeps.fish`,
	"completion powershell": `  upkdeps completion powershell | Out-String | Invoke-Expression`,
	"completion zsh":        `  upkdeps completion zsh > "${fpath[1]}/_upkdeps"`,
	"deps":                  `  upkdeps deps --ini testdata/demo/System/Demo.ini DM-Demo --depth 1`,
	"rdeps":                 `  upkdeps rdeps --ini testdata/demo/System/Demo.ini DemoTex`,
	"downloads": `  upkdeps downloads --ini /srv/ut99/System/UnrealTournament.ini CTF-Face --top 10
  upkdeps downloads --ini /srv/ut99/System/UnrealTournament.ini --redirect /var/www/redirect`,
	"fix": `  upkdeps fix --ini /srv/ut99/System/UnrealTournament.ini --dry-run
  upkdeps fix --ini /srv/ut99/System/UnrealTournament.ini --newest`,
	"find": `  upkdeps find CityTex
  upkdeps find Botpack.TournamentWeapon`,
	"graph": `  upkdeps graph --ini testdata/demo/System/Demo.ini --from DM-Demo --format svg -o dm-demo.svg
  upkdeps graph --ini testdata/demo/System/Demo.ini --cycle 1`,
	"headers": `  upkdeps headers --ini /src/ut99/System/UnrealTournament.ini --check
  upkdeps headers --root /src/mymod MyModBase MyMod --dry-run`,
	"index": `  upkdeps index add /backup/ut-server /mnt/cd/UnrealTournament
  upkdeps index stats`,
	"index add": `  upkdeps index add /backup/ut-server ~/Downloads/mods/*.zip
  upkdeps index add --unreal-archive ~/unreal-archive-data /mnt/archive`,
	"index list":   `  upkdeps index list --json`,
	"index remove": `  upkdeps index remove /backup/old-server`,
	"index stats":  `  upkdeps index stats --json`,
	"info": `  upkdeps info testdata/demo/Maps/DM-Demo.unr
  upkdeps info --imports --json System/Botpack.u`,
	"natives": `  upkdeps natives --ini /srv/ut99/System/UnrealTournament.ini`,
	"order": `  upkdeps order --ini testdata/demo/System/Demo.ini --explain
  upkdeps order --ini System/UT2004.ini --clean --format github`,
	"plan": `  upkdeps plan --ini /srv/ut99/System/UnrealTournament.ini
  upkdeps plan --ini /srv/ut99/System/UnrealTournament.ini --verify ~/Downloads`,
	"redirect": `  upkdeps redirect build --ini /srv/ut99/System/UnrealTournament.ini -o /var/www/redirect`,
	"redirect build": `  upkdeps redirect build --ini /srv/ut99/System/UnrealTournament.ini -o /var/www/redirect --dry-run
  upkdeps redirect build --ini /srv/ut99/System/UnrealTournament.ini -o /var/www/redirect --maps 'CTF-*'`,
	"redirect verify": `  upkdeps redirect verify --ini /srv/ut99/System/UnrealTournament.ini -o /var/www/redirect`,
	"report":          `  upkdeps report --ini testdata/demo/System/Demo.ini -o demo-report.html`,
	"resolve": `  upkdeps resolve --ini testdata/demo/System/Demo.ini DemoBase CityTex
  upkdeps resolve --ini /srv/ut2004/System/UT2004.ini --guid 0123456789ABCDEF0123456789ABCDEF --generation 1 Foo`,
	"uz":            `  upkdeps uz compress --format uz2 -o /var/www/redirect Maps/DM-Rankin.ut2`,
	"uz compress":   `  upkdeps uz compress -o /var/www/redirect Maps/CTF-Face.unr System/Botpack.u`,
	"uz decompress": `  upkdeps uz decompress -o /tmp/pkgs Cache/*.uz`,
	"version":       `  upkdeps version --json`,
	"why": `  upkdeps why --ini testdata/demo/System/Demo.ini DM-Demo CityTex
  upkdeps why --ini testdata/demo/System/Demo.ini DemoFX`,
}

// addExamples sets the Example of cmd and every command below it from
// examples (a command's own Example is kept).
func addExamples(cmd *cobra.Command) {
	key := strings.TrimPrefix(strings.TrimPrefix(cmd.CommandPath(), "upkdeps"), " ")
	if ex, ok := examples[key]; ok && cmd.Example == "" {
		cmd.Example = ex
	}
	for _, sub := range cmd.Commands() {
		addExamples(sub)
	}
}

package party

import (
	"encoding/json"
	"pitwall/dice"
	"testing"
)

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func scripted(t testing.TB, rolls ...string) *dice.Roller {
	t.Helper()
	s, err := dice.NewScript(rolls...)
	if err != nil {
		t.Fatal(err)
	}
	return dice.WithSource(s)
}

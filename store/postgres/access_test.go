package postgres

import (
	"testing"

	"pitwall/store/storetest"
)

func TestAccessConformance(t *testing.T) { storetest.RunAccess(t, opener(t, "access_")) }
func TestHookConformance(t *testing.T)   { storetest.RunHooks(t, opener(t, "hooks_")) }

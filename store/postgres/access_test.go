package postgres

import (
	"testing"

	"pitwall/store/storetest"
)

func TestAccessConformance(t *testing.T) { storetest.RunAccess(t, opener(t, "access_")) }

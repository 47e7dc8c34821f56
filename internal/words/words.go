// Package words is the few rules of English the posts need: a count with
// its noun in the right number, a list, a place in words.
package words

import (
	"fmt"
	"strings"
)

// irregular are the plurals that do not add s.
var irregular = map[string]string{"die": "dice"}

// Plural is the plural of a noun: die, dice; lap, laps; box, boxes.
func Plural(one string) string {
	if p, ok := irregular[one]; ok {
		return p
	}
	for _, end := range []string{"s", "x", "ch", "sh"} {
		if strings.HasSuffix(one, end) {
			return one + "es"
		}
	}
	return one + "s"
}

// Count is n and the noun in the number n takes: "1 lap", "3 laps", "0 dice".
// A noun of several words counts by its last: "1 item box", "2 item boxes".
func Count(n int, one string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	head, last := "", one
	if i := strings.LastIndex(one, " "); i >= 0 {
		head, last = one[:i+1], one[i+1:]
	}
	return fmt.Sprintf("%d %s%s", n, head, Plural(last))
}

// Verb is the form of a verb for n subjects: Verb(1, "wins", "win") is
// "wins", Verb(3, "wins", "win") is "win".
func Verb(n int, one, more string) string {
	if n == 1 {
		return one
	}
	return more
}

// List joins names as a sentence does: "A", "A and B", "A, B and C".
func List(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

var ordinals = []string{"", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth"}

// Ordinal is a place in words: "first", "second", ... "twelfth", then
// "13th", "21st", "22nd", "23rd", "111th".
func Ordinal(n int) string {
	if n >= 1 && n < len(ordinals) {
		return ordinals[n]
	}
	return Nth(n)
}

// Nth is a place in figures: "1st", "2nd", "3rd", "4th", "11th", "21st".
func Nth(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

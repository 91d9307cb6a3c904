package skirmish

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"testing"
	"unsafe"
)

// cloneShared are the parts of a State that clone shares on purpose, as
// paths with the indices and map keys left out. Anything else reachable
// through a slice, map or pointer must be copied.
var cloneShared = map[string]string{
	"data":   "the game data from StartGame never changes",
	"waiver": "the referee's waiver of one engine call (ApplyAllowing), nil in every state an engine call returns",
	// clone copies the Weapons slice, but a row's own slices and pointers
	// are shared: weapon rows never change once a unit exists.
	"Units[].Weapons[].MGBonus": "weapon rows never change",
	"Units[].Weapons[].Assumed": "weapon rows never change",
}

// TestCloneSharesNothing fills every field of a State by reflection (slices
// and maps with two entries, pointers set, recursively, unexported fields
// too), clones it, and then, one at a time, changes each scalar reachable in
// the clone and adds and deletes a key in each of its maps. The original must
// stay as it was every time. A field added to State or to anything it
// holds is filled and checked without touching this test; if clone forgets
// it, the test names its path.
func TestCloneSharesNothing(t *testing.T) {
	build := func() State {
		var s State
		f := filler{t: t}
		f.fill(reflect.ValueOf(&s).Elem(), "", 0)
		return s
	}
	// The clone is a faithful copy.
	orig, want := build(), build()
	if !reflect.DeepEqual(orig, want) {
		t.Fatal("filler is not deterministic")
	}
	if c := orig.clone(); !reflect.DeepEqual(c, want) {
		t.Fatalf("the clone differs from the original:\n got %+v\nwant %+v", c, want)
	}
	sites := 0
	for k := 0; ; k++ {
		orig := build()
		c := orig.clone()
		m := mutator{target: k}
		m.walk(reflect.ValueOf(&c).Elem(), "")
		if m.path == "" {
			break // every site changed once
		}
		sites++
		if !reflect.DeepEqual(orig, want) {
			t.Errorf("%s: changing it in the clone changed the original (clone shares it)", m.path)
		}
	}
	// A State as filled has well over a hundred places to change; far fewer
	// means the walk stopped early.
	if sites < 150 {
		t.Errorf("only %d places changed, want every scalar and map of a full State", sites)
	}
	t.Logf("%d places changed in the clone", sites)
}

// settable is v's field i, settable even when unexported (v must be
// addressable).
func settable(v reflect.Value, i int) reflect.Value {
	f := v.Field(i)
	if !f.CanSet() {
		f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	}
	return f
}

var indices = regexp.MustCompile(`\[[^]]*\]|\{[^}]*\}`)

// shape is a path without its indices and map keys: "Units[].Models[].At".
func shape(path string) string {
	return indices.ReplaceAllStringFunc(path, func(s string) string { return s[:1] + s[len(s)-1:] })
}

func fieldPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// filler gives every reachable value a non-zero value, different from all
// the others (a counter), the same on every run.
type filler struct {
	t *testing.T
	n int
}

func (f *filler) fill(v reflect.Value, path string, depth int) {
	if depth > 20 {
		f.t.Fatalf("%s: nested more than 20 deep; is the type recursive?", path)
	}
	f.n++
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(f.n%100 + 1))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(uint64(f.n%100 + 1))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(f.n) + 0.5)
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", f.n))
	case reflect.Struct:
		for i := range v.NumField() {
			p := fieldPath(path, v.Type().Field(i).Name)
			if _, ok := cloneShared[shape(p)]; ok {
				continue
			}
			f.fill(settable(v, i), p, depth+1)
		}
	case reflect.Array:
		for i := range v.Len() {
			f.fill(v.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1)
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			f.fill(v.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for range 2 {
			k := reflect.New(v.Type().Key()).Elem()
			f.fill(k, path+"{}", depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			f.fill(e, fmt.Sprintf("%s{%v}", path, k), depth+1)
			v.SetMapIndex(k, e)
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		f.fill(v.Elem(), path, depth+1)
	default:
		f.t.Fatalf("%s: cannot fill a %s; teach the filler (and clone) about it", path, v.Kind())
	}
}

// mutator walks a State in a fixed order and changes the target-th place:
// a scalar, or a map gaining or losing a key. path names it once done.
type mutator struct {
	target, count int
	path          string
}

func (m *mutator) here(path string) bool {
	if m.path != "" {
		return false
	}
	if m.count == m.target {
		m.path = path
		return true
	}
	m.count++
	return false
}

func (m *mutator) walk(v reflect.Value, path string) {
	if m.path != "" {
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		if m.here(path) {
			v.SetBool(!v.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if m.here(path) {
			v.SetInt(v.Int() + 101)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if m.here(path) {
			v.SetUint(v.Uint() + 101)
		}
	case reflect.Float32, reflect.Float64:
		if m.here(path) {
			v.SetFloat(v.Float() + 1000)
		}
	case reflect.String:
		if m.here(path) {
			v.SetString(v.String() + "~")
		}
	case reflect.Struct:
		for i := range v.NumField() {
			p := fieldPath(path, v.Type().Field(i).Name)
			if _, ok := cloneShared[shape(p)]; ok {
				continue
			}
			m.walk(settable(v, i), p)
		}
	case reflect.Array, reflect.Slice:
		for i := range v.Len() {
			m.walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		if m.here(path + "{+key}") {
			k := reflect.New(v.Type().Key()).Elem()
			v.SetMapIndex(k, reflect.New(v.Type().Elem()).Elem())
			return
		}
		if len(keys) > 0 && m.here(fmt.Sprintf("%s{-%v}", path, keys[0])) {
			v.SetMapIndex(keys[0], reflect.Value{})
			return
		}
		for _, k := range keys {
			// Map entries are not addressable: change a copy, store it back.
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			m.walk(e, fmt.Sprintf("%s{%v}", path, k))
			if m.path != "" {
				v.SetMapIndex(k, e)
				return
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			m.walk(v.Elem(), path)
		}
	default:
		panic(fmt.Sprintf("%s: cannot change a %s", path, v.Kind()))
	}
}

func TestCloneSharedPathsExist(t *testing.T) {
	// Every exception names a path a State has, so a renamed field does not
	// leave a stale exception behind.
	seen := map[string]bool{}
	var walk func(typ reflect.Type, path string, depth int)
	walk = func(typ reflect.Type, path string, depth int) {
		if depth > 20 || seen[path] {
			return
		}
		seen[path] = true
		switch typ.Kind() {
		case reflect.Struct:
			for i := range typ.NumField() {
				walk(typ.Field(i).Type, fieldPath(path, typ.Field(i).Name), depth+1)
			}
		case reflect.Slice, reflect.Array:
			walk(typ.Elem(), path+"[]", depth+1)
		case reflect.Map:
			walk(typ.Elem(), path+"{}", depth+1)
		case reflect.Pointer:
			walk(typ.Elem(), path, depth+1)
		}
	}
	walk(reflect.TypeFor[State](), "", 0)
	for p := range cloneShared {
		if !seen[p] {
			t.Errorf("cloneShared names %q, which a State does not have", p)
		}
	}
}

package west1920

import (
	"reflect"
	"sync"

	"github.com/sztab/sztab/internal/yamlsafe"
)

// decodeCache remembers the last few YAML decodings of one data file by
// content. YAML decoding is ~90% of ParseCatalogue (BenchmarkParseCatalogue);
// callers that load the same file again (the three files of a game, a
// fuzzer changing one file of three, StartGame after ParseCatalogue) skip
// it. The cache keeps its own deep copy and a hit hands out another, so no
// caller can change another's data.
type decodeCache[T any] struct {
	mu sync.Mutex
	m  map[string]decoded
}

type decoded struct {
	v   any // *T, never handed out
	err error
}

// cacheSize bounds each file's cache (any entry is dropped when full).
const cacheSize = 8

// useDecodeCache is off only in BenchmarkParseCatalogue's "before" case.
var useDecodeCache = true

func (c *decodeCache[T]) decode(data []byte, v *T) error {
	if !useDecodeCache {
		return yamlsafe.Strict(data, v)
	}
	c.mu.Lock()
	e, ok := c.m[string(data)]
	c.mu.Unlock()
	if !ok {
		e.err = yamlsafe.Strict(data, v)
		if e.err == nil {
			e.v = deepCopy(v)
		}
		c.mu.Lock()
		if c.m == nil {
			c.m = map[string]decoded{}
		}
		if len(c.m) >= cacheSize {
			for k := range c.m {
				delete(c.m, k)
				break
			}
		}
		c.m[string(data)] = e
		c.mu.Unlock()
		return e.err
	}
	if e.err != nil {
		return e.err
	}
	*v = *deepCopy(e.v.(*T))
	return nil
}

// deepCopy copies the plain data of the data files: structs, slices, maps,
// pointers and scalars (nil stays nil, empty stays empty).
func deepCopy[T any](v *T) *T {
	out := new(T)
	copyValue(reflect.ValueOf(out).Elem(), reflect.ValueOf(v).Elem())
	return out
}

func copyValue(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Struct:
		for i := 0; i < src.NumField(); i++ {
			copyValue(dst.Field(i), src.Field(i))
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := 0; i < src.Len(); i++ {
			copyValue(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Array:
		for i := 0; i < src.Len(); i++ {
			copyValue(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		it := src.MapRange()
		for it.Next() {
			v := reflect.New(src.Type().Elem()).Elem()
			copyValue(v, it.Value())
			m.SetMapIndex(it.Key(), v)
		}
		dst.Set(m)
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		copyValue(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Interface:
		dst.Set(src) // not in the data types
	default:
		dst.Set(src)
	}
}

var (
	mapCache   decodeCache[MapData]
	oobCache   decodeCache[OOBData]
	cardsCache decodeCache[CardsData]
)

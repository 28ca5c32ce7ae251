package migrate

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/utpl/simulador/backend/internal/store"
)

// canonical encodes a record's value so that the same data reads the same
// from every store, whatever the store did to its form: times are compared
// in UTC at the millisecond (the SQL stores' precision; Firestore keeps
// microseconds), a missing list equals an empty one, map keys are sorted.
// It walks any value by reflection, so a field added to a domain type is
// compared without a change here.
func canonical(v any) []byte {
	var b bytes.Buffer
	encode(&b, reflect.ValueOf(v))
	return b.Bytes()
}

// recordHash identifies a record's key and content.
func recordHash(rec store.Record) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(rec.Key))
	h.Write([]byte{0})
	h.Write(canonical(rec.Value))
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

var timeType = reflect.TypeFor[time.Time]()

func encode(b *bytes.Buffer, v reflect.Value) {
	if !v.IsValid() {
		b.WriteString("null")
		return
	}
	if v.Type() == timeType {
		t := v.Interface().(time.Time)
		if t.IsZero() {
			b.WriteString("null")
			return
		}
		b.WriteString(strconv.Quote(t.UTC().Truncate(time.Millisecond).Format(time.RFC3339Nano)))
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		encode(b, v.Elem())
	case reflect.Struct:
		b.WriteByte('{')
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			b.WriteString(strconv.Quote(f.Name))
			b.WriteByte(':')
			encode(b, v.Field(i))
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case reflect.Slice, reflect.Array:
		b.WriteByte('[')
		for i := range v.Len() {
			encode(b, v.Index(i))
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(x, y reflect.Value) int { return cmp.Compare(fmt.Sprint(x), fmt.Sprint(y)) })
		b.WriteByte('{')
		for _, k := range keys {
			b.WriteString(strconv.Quote(fmt.Sprint(k)))
			b.WriteByte(':')
			encode(b, v.MapIndex(k))
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		b.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	default:
		fmt.Fprintf(b, "%q", fmt.Sprint(v.Interface()))
	}
}

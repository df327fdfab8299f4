package pqscan

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Physical types, repetitions and codecs of the Parquet format.
const (
	typeBoolean = 0
	typeInt32   = 1
	typeInt64   = 2
	typeInt96   = 3
	typeFloat   = 4
	typeDouble  = 5
	typeBytes   = 6
	typeFixed   = 7

	repRequired = 0
	repOptional = 1
	repRepeated = 2

	codecNone   = 0
	codecSnappy = 1
	codecGzip   = 2
	codecBrotli = 4
	codecZstd   = 6
)

// File is what the scan keeps of a Parquet file's footer.
type File struct {
	// Size is the file's size in bytes; FooterLen the footer's.
	Size, FooterLen int64
	// NumRows is the file's row count as the footer says it.
	NumRows int64
	// Leaves holds the leaf columns in schema order; Elements the schema
	// elements (Leaves refer to them).
	Leaves   []Leaf
	Elements []Element
	// TopLeaves holds, for each top-level field, its leaves' indices.
	TopLeaves [][]int
	// RowGroups holds each row group's rows and column chunks.
	RowGroups []RowGroup
}

// Element is one schema element.
type Element struct {
	Name       string
	Parent     int // -1 for the root
	Physical   int32
	TypeLength int32
	Children   int32
	Repetition int32
}

// Leaf is a leaf column.
type Leaf struct {
	Element        int // in File.Elements
	MaxDef, MaxRep int
}

// RowGroup is a row group's row count and column chunks.
type RowGroup struct {
	Rows   int64
	Chunks []Chunk
}

// Chunk is what the scan needs of a column chunk.
type Chunk struct {
	Codec     int32
	NumValues int64
	// Start and Len delimit the chunk's pages in the file.
	Start, Len int64
}

// Path is the dotted path of leaf i ("a.list.element").
func (f *File) Path(i int) string {
	if i < 0 || i >= len(f.Leaves) {
		return fmt.Sprintf("#%d", i)
	}
	var parts []string
	for e := f.Leaves[i].Element; e > 0; e = f.Elements[e].Parent {
		parts = append(parts, f.Elements[e].Name)
	}
	for l, r := 0, len(parts)-1; l < r; l, r = l+1, r-1 {
		parts[l], parts[r] = parts[r], parts[l]
	}
	return strings.Join(parts, ".")
}

// ReadFooter reads and checks the footer of the Parquet file r of size
// bytes (the magic at both ends is the caller's to have checked): its
// length against the file and lim.MaxBuffer, its Thrift (bounded), the
// schema (depth at most MaxSchemaDepth, children counts that add up, a
// positive length for fixed-size binaries), row counts, and each column
// chunk's type, codec, counts, offsets and sizes against the file.
func ReadFooter(r io.ReaderAt, size int64, lim Limits) (*File, error) {
	if size < 12 {
		return nil, fmt.Errorf("%w: a file of %d bytes", ErrInvalid, size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return nil, fmt.Errorf("%w: reading the footer length: %w", ErrInvalid, err)
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return nil, fmt.Errorf("%w: a footer of %d bytes in a file of %d", ErrInvalid, n, size)
	}
	if n > lim.MaxBuffer {
		return nil, fmt.Errorf("%w: %w: a footer of %d bytes exceeds the limit of %d (WithMaxBuffer)", ErrInvalid, ErrLimit, n, lim.MaxBuffer)
	}
	b := make([]byte, n)
	if _, err := r.ReadAt(b, size-8-n); err != nil {
		return nil, fmt.Errorf("%w: reading the footer: %w", ErrInvalid, err)
	}
	f := &File{Size: size, FooterLen: n}
	if err := f.parse(b); err != nil {
		var short *errShort
		if errors.As(err, &short) {
			return nil, fmt.Errorf("%w: footer: %w", ErrInvalid, err)
		}
		return nil, fmt.Errorf("footer: %w", err)
	}
	if err := f.check(); err != nil {
		return nil, err
	}
	return f, nil
}

// parse reads FileMetaData.
func (f *File) parse(b []byte) error {
	r := &tReader{b: b}
	var haveSchema, haveRows, haveGroups bool
	err := r.fields(func(id int16, typ byte) error {
		switch id {
		case 2:
			haveSchema = true
			return r.list("schema", typ, tStruct, func(int) error { return f.element(r) })
		case 3:
			haveRows = true
			if err := want("FileMetaData", id, typ, tI64); err != nil {
				return err
			}
			v, err := r.i64()
			f.NumRows = v
			return err
		case 4:
			haveGroups = true
			return r.list("row_groups", typ, tStruct, func(i int) error { return f.rowGroup(r, i) })
		case 8, 9:
			return fmt.Errorf("%w: an encrypted file (FileMetaData field %d)", ErrUnsupported, id)
		}
		return r.skip(typ)
	})
	if err != nil {
		return err
	}
	if !haveSchema || !haveRows || !haveGroups {
		return fmt.Errorf("%w: FileMetaData without its schema, num_rows or row_groups", ErrInvalid)
	}
	return nil
}

// element reads a SchemaElement.
func (f *File) element(r *tReader) error {
	e := Element{Physical: -1, Parent: -1, Repetition: -1}
	var name bool
	err := r.fields(func(id int16, typ byte) error {
		var p *int32
		switch id {
		case 1:
			p = &e.Physical
		case 2:
			p = &e.TypeLength
		case 3:
			p = &e.Repetition
		case 5:
			p = &e.Children
		case 4:
			if err := want("SchemaElement", id, typ, tBinary); err != nil {
				return err
			}
			v, err := r.binary()
			e.Name, name = string(v), true
			return err
		default:
			return r.skip(typ)
		}
		if err := want("SchemaElement", id, typ, tI32); err != nil {
			return err
		}
		v, err := r.i32()
		*p = v
		return err
	})
	if err != nil {
		return err
	}
	if !name {
		return fmt.Errorf("%w: schema element %d without a name", ErrInvalid, len(f.Elements))
	}
	f.Elements = append(f.Elements, e)
	return nil
}

// rowGroup reads RowGroup i.
func (f *File) rowGroup(r *tReader, i int) error {
	g := RowGroup{Rows: -1}
	var cols bool
	err := r.fields(func(id int16, typ byte) error {
		switch id {
		case 1:
			cols = true
			return r.list("columns", typ, tStruct, func(j int) error {
				c, err := chunk(r)
				if err != nil {
					return fmt.Errorf("row group %d, column chunk %d: %w", i, j, err)
				}
				g.Chunks = append(g.Chunks, c)
				return nil
			})
		case 3:
			if err := want("RowGroup", id, typ, tI64); err != nil {
				return err
			}
			v, err := r.i64()
			g.Rows = v
			return err
		}
		return r.skip(typ)
	})
	if err != nil {
		return err
	}
	if !cols || g.Rows < 0 {
		return fmt.Errorf("%w: row group %d: no columns, or %d rows", ErrInvalid, i, g.Rows)
	}
	f.RowGroups = append(f.RowGroups, g)
	return nil
}

// chunk reads a ColumnChunk.
func chunk(r *tReader) (Chunk, error) {
	c := Chunk{Codec: -1, NumValues: -1, Len: -1}
	var meta, external bool
	dict, data := int64(0), int64(-1)
	err := r.fields(func(id int16, typ byte) error {
		switch id {
		case 1:
			external = true
			return r.skip(typ)
		case 3:
			meta = true
			if err := want("ColumnChunk", id, typ, tStruct); err != nil {
				return err
			}
			return r.fields(func(id int16, typ byte) error {
				var p *int64
				switch id {
				case 4:
					if err := want("ColumnMetaData", id, typ, tI32); err != nil {
						return err
					}
					v, err := r.i32()
					c.Codec = v
					return err
				case 5:
					p = &c.NumValues
				case 7:
					p = &c.Len
				case 9:
					p = &data
				case 11:
					p = &dict
				default:
					return r.skip(typ)
				}
				if err := want("ColumnMetaData", id, typ, tI64); err != nil {
					return err
				}
				v, err := r.i64()
				*p = v
				return err
			})
		case 8, 9:
			return fmt.Errorf("%w: an encrypted column chunk", ErrUnsupported)
		}
		return r.skip(typ)
	})
	if err != nil {
		return c, err
	}
	if !meta {
		if external {
			return c, fmt.Errorf("%w: a column chunk in another file (file_path)", ErrUnsupported)
		}
		return c, fmt.Errorf("%w: a column chunk without its metadata", ErrInvalid)
	}
	c.Start = data
	if dict > 0 && dict < data {
		c.Start = dict // as arrow-go's row group reader
	}
	return c, nil
}

// check checks the schema and the row groups against each other and the
// file.
func (f *File) check() error {
	if err := f.schema(); err != nil {
		return err
	}
	if f.NumRows < 0 {
		return fmt.Errorf("%w: the footer says %d rows", ErrInvalid, f.NumRows)
	}
	end := f.Size - 8 - f.FooterLen // the pages end where the footer starts
	for i, g := range f.RowGroups {
		if len(g.Chunks) != len(f.Leaves) {
			return fmt.Errorf("%w: row group %d has %d column chunks for the schema's %d leaf columns", ErrInvalid, i, len(g.Chunks), len(f.Leaves))
		}
		for j, c := range g.Chunks {
			where := fmt.Sprintf("row group %d, column %q", i, f.Path(j))
			switch c.Codec {
			case codecNone, codecSnappy, codecGzip, codecBrotli, codecZstd:
			default:
				return fmt.Errorf("%w: %s: compression codec %d", ErrUnsupported, where, c.Codec)
			}
			if c.NumValues < 0 || c.Len < 0 || c.Start < 4 || c.Start > end || c.Len > end-c.Start {
				return fmt.Errorf("%w: %s: %d values, %d bytes at offset %d, in a file whose pages end at byte %d", ErrInvalid, where, c.NumValues, c.Len, c.Start, end)
			}
		}
	}
	return nil
}

// schema checks the schema tree (depth, children counts, leaf types) and
// fills Leaves and TopLeaves. Iterative: the depth is checked as it goes.
func (f *File) schema() error {
	es := f.Elements
	if len(es) == 0 || es[0].Children < 0 {
		return fmt.Errorf("%w: an empty schema", ErrInvalid)
	}
	type frame struct {
		elem, left, def, rep, top int
	}
	stack := []frame{{elem: 0, left: int(es[0].Children), top: -1}}
	for i := 1; i < len(es); i++ {
		for len(stack) > 0 && stack[len(stack)-1].left == 0 {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			return fmt.Errorf("%w: schema element %d (%q) is outside the tree (children counts do not add up)", ErrInvalid, i, es[i].Name)
		}
		p := &stack[len(stack)-1]
		p.left--
		e := &es[i]
		e.Parent = p.elem
		def, rep, top := p.def, p.rep, p.top
		if top < 0 {
			top = len(f.TopLeaves)
			f.TopLeaves = append(f.TopLeaves, nil)
		}
		switch e.Repetition {
		case repRequired:
		case repOptional:
			def++
		case repRepeated:
			def, rep = def+1, rep+1
		default:
			return fmt.Errorf("%w: schema element %q: repetition %d", ErrInvalid, e.Name, e.Repetition)
		}
		if e.Children > 0 {
			if len(stack) >= MaxSchemaDepth {
				return fmt.Errorf("%w: schema nested deeper than %d groups (at element %d, %q)", ErrInvalid, MaxSchemaDepth, i, e.Name)
			}
			stack = append(stack, frame{elem: i, left: int(e.Children), def: def, rep: rep, top: top})
			continue
		}
		if e.Children < 0 {
			return fmt.Errorf("%w: schema element %q: %d children", ErrInvalid, e.Name, e.Children)
		}
		switch e.Physical {
		case typeBoolean, typeInt32, typeInt64, typeInt96, typeFloat, typeDouble, typeBytes:
		case typeFixed:
			if e.TypeLength <= 0 {
				return fmt.Errorf("%w: schema element %q: FIXED_LEN_BYTE_ARRAY of length %d", ErrInvalid, e.Name, e.TypeLength)
			}
		default:
			return fmt.Errorf("%w: schema element %q: a leaf of physical type %d", ErrInvalid, e.Name, e.Physical)
		}
		f.TopLeaves[top] = append(f.TopLeaves[top], len(f.Leaves))
		f.Leaves = append(f.Leaves, Leaf{Element: i, MaxDef: def, MaxRep: rep})
	}
	for _, fr := range stack {
		if fr.left != 0 {
			return fmt.Errorf("%w: schema element %q claims more children than the schema holds", ErrInvalid, es[fr.elem].Name)
		}
	}
	if len(f.Leaves) == 0 && len(f.TopLeaves) > 0 {
		return fmt.Errorf("%w: a schema of groups without leaf columns", ErrInvalid)
	}
	return nil
}

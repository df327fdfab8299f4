package pqscan

// TimestampFlag is where the isAdjustedToUTC flag of a timestamp column
// sits in an encoded FileMetaData, so that a writer can correct it in
// place: a compact-protocol boolean is the low nibble of its field header
// (tTrue or tFalse), so flipping it keeps every length.
type TimestampFlag struct {
	Name     string // the schema element's name
	Top      bool   // a column of the root (not inside a group)
	Pos      int    // the byte whose low nibble holds the flag
	Adjusted bool   // the flag's value
}

// TimestampFlags finds the isAdjustedToUTC flags of the timestamp logical
// types in footer (a FileMetaData without the length and magic that
// follow it).
func TimestampFlags(footer []byte) ([]TimestampFlag, error) {
	r := &tReader{b: footer}
	var flags []TimestampFlag
	var left []int32 // children still to come at each open group
	err := r.fields(func(id int16, typ byte) error {
		if id != 2 {
			return r.skip(typ)
		}
		return r.list("schema", typ, tStruct, func(int) error {
			var name string
			var children int32
			var flag *TimestampFlag
			err := r.fields(func(id int16, typ byte) error {
				switch {
				case id == 4 && typ == tBinary:
					v, err := r.binary()
					name = string(v)
					return err
				case id == 5 && typ == tI32:
					v, err := r.i32()
					children = v
					return err
				case id == 10 && typ == tStruct: // LogicalType
					return r.fields(func(id int16, typ byte) error {
						if id != 8 || typ != tStruct { // TIMESTAMP
							return r.skip(typ)
						}
						return r.fields(func(id int16, typ byte) error {
							if id == 1 && (typ == tTrue || typ == tFalse) {
								flag = &TimestampFlag{Pos: r.hdr, Adjusted: typ == tTrue}
							}
							return r.skip(typ)
						})
					})
				}
				return r.skip(typ)
			})
			if err != nil {
				return err
			}
			depth := len(left)
			if depth > 0 {
				left[depth-1]--
			}
			if flag != nil {
				flag.Name, flag.Top = name, depth == 1
				flags = append(flags, *flag)
			}
			if children > 0 {
				left = append(left, children)
			}
			for len(left) > 0 && left[len(left)-1] <= 0 {
				left = left[:len(left)-1]
			}
			return nil
		})
	})
	return flags, err
}

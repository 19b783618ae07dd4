"""Game records: the notation, reader, writer, validator and views."""

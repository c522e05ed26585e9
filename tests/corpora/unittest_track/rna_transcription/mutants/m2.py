def to_rna(dna_strand):
    return dna_strand.replace("T", "U")

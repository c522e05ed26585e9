COMPLEMENT = {"G": "C", "C": "G", "T": "A", "A": "U"}


def to_rna(dna_strand):
    return "".join(COMPLEMENT[n] for n in dna_strand)

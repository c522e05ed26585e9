COMPLEMENT = {"G": "C", "C": "G", "T": "A", "A": "T"}


def to_rna(dna_strand):
    return "".join(COMPLEMENT[n] for n in dna_strand)

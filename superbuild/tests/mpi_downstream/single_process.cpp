// Links the package alone: a single-process consumer of an install that also has the mpi component.
int main() { return 0; }
